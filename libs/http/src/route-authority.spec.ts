import { Controller, Get, type LoggerService, Module, Post } from '@nestjs/common';
import { DeclaresAuthority, NO_CREDENTIAL, ROUTE_AUTHORITY } from '@platform/contract';
import { createHttpApp } from './create-http-app';
import { controllersOf, RouteAuthorityModule, undeclaredRoutes } from './route-authority';

const READ = { permission: 'jobs.read', tenant: 'path:tenant' } as const;

@Controller('declared')
@DeclaresAuthority(NO_CREDENTIAL)
class DeclaredController {
  @Get()
  read(): object {
    return {};
  }
}

@Controller('mixed')
class MixedController {
  @Get(':tenant')
  @DeclaresAuthority(READ)
  read(): object {
    return {};
  }

  @Post()
  forgotten(): object {
    return {};
  }
}

@Module({ controllers: [DeclaredController] })
class DeclaredModule {}

@Module({ imports: [DeclaredModule], controllers: [MixedController] })
class MixedModule {}

const logger: LoggerService = { log: jest.fn(), error: jest.fn(), warn: jest.fn() };

describe('route authority declarations', () => {
  it('reads a declaration from the handler, else from its controller', () => {
    expect(Reflect.getMetadata(ROUTE_AUTHORITY, DeclaredController)).toEqual(NO_CREDENTIAL);
    expect(Reflect.getMetadata(ROUTE_AUTHORITY, MixedController.prototype.read)).toEqual(READ);
  });

  it('names each route handler that declares nothing', () => {
    expect(undeclaredRoutes([DeclaredController, MixedController])).toEqual(['MixedController.forgotten']);
  });

  it('finds the controllers of a module and of the modules it imports', () => {
    expect(controllersOf(MixedModule)).toEqual([MixedController, DeclaredController]);
    expect(controllersOf({ module: DeclaredModule, controllers: [MixedController] })).toEqual([
      DeclaredController,
      MixedController,
    ]);
  });

  it('refuses to declare a route twice', () => {
    expect(() => {
      @Controller('twice')
      @DeclaresAuthority(NO_CREDENTIAL)
      class TwiceController {
        @Get()
        @DeclaresAuthority(READ)
        read(): object {
          return {};
        }
      }
      return TwiceController;
    }).toThrow(/authority declared twice/);
    expect(() => {
      class TwiceController {
        @Get()
        @DeclaresAuthority(READ)
        @DeclaresAuthority(NO_CREDENTIAL)
        read(): object {
          return {};
        }
      }
      return TwiceController;
    }).toThrow(/authority declared twice/);
  });

  it('does not start an application with an undeclared route', async () => {
    @Module({ imports: [RouteAuthorityModule, MixedModule] })
    class Application {}
    const app = await createHttpApp(Application, { logger });
    await expect(app.init()).rejects.toThrow(/MixedController\.forgotten/);
    await app.close();
  });

  it('starts an application whose routes all declare', async () => {
    @Module({ imports: [RouteAuthorityModule, DeclaredModule] })
    class Application {}
    const app = await createHttpApp(Application, { logger });
    await expect(app.init()).resolves.toBe(app);
    await app.close();
  });
});
