import { Body, Controller, Header, HttpCode, Post } from '@nestjs/common';
import { SessionService } from '@platform/domain';
import { CreateSessionDto, SessionDto, toSessionResponse, toUserResponse } from './dto';
import { InternalRoute } from '../platform/route-authority';

/** Browser sessions, opened by the backend once the identity provider vouched for the user. */
@Controller('internal/v1/sessions')
@InternalRoute()
export class SessionsController {
  constructor(private readonly sessions: SessionService) {}

  @Post()
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  async create(@Body() body: CreateSessionDto) {
    return toSessionResponse(await this.sessions.create(body));
  }

  @Post('resolve')
  @HttpCode(200)
  async resolve(@Body() body: SessionDto) {
    return { user: toUserResponse(await this.sessions.resolve(body.session)) };
  }

  @Post('end')
  @HttpCode(204)
  async end(@Body() body: SessionDto): Promise<void> {
    await this.sessions.end(body.session);
  }
}
