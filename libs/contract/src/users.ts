import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { RolesProperty } from './fields';

@ApiSchema({
  name: 'User',
  description: 'A user, keyed by (identity provider issuer, subject); the provider is the source of truth.',
})
export class UserDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: 'string', nullable: true }) email: string | null;
  @ApiProperty({ type: 'string', nullable: true }) name: string | null;
  @ApiProperty() tenant: string;
  @RolesProperty() roles: string[];
}

/** Not validated here: the domain judges the roles, so an unknown role is its 400 in its words. */
@ApiSchema({
  name: 'RolesUpdate',
  description: 'The user’s complete new role list. Only a `global_admin` may grant `global_admin`.',
})
export class RolesUpdateDto {
  @RolesProperty()
  @Allow()
  roles: unknown;
}
