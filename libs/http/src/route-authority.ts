import { type DynamicModule, Injectable, Module, type OnModuleInit, type Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { ROUTE_AUTHORITY, type RouteAuthority, routeHandlersOf } from '@platform/contract';

type Controller = Type<unknown>;

/** The authority a handler declares, on itself or on its controller (@platform/contract). */
export function declaredAuthority(controller: Controller, handler: object): RouteAuthority | undefined {
  return (Reflect.getMetadata(ROUTE_AUTHORITY, handler) ??
    Reflect.getMetadata(ROUTE_AUTHORITY, controller)) as RouteAuthority | undefined;
}

/** `Controller.method` of each route handler of `controllers` that declares no authority. */
export function undeclaredRoutes(controllers: readonly Controller[]): string[] {
  return controllers.flatMap((controller) =>
    routeHandlersOf(controller)
      .filter(([, handler]) => declaredAuthority(controller, handler) === undefined)
      .map(([name]) => `${controller.name}.${name}`),
  );
}

/** The controllers of `module` and of every module it imports, read from their decorators. */
export function controllersOf(
  module: Type<unknown> | DynamicModule,
  seen = new Set<unknown>(),
): Controller[] {
  const type = 'module' in module ? module.module : module;
  if (seen.has(module)) return [];
  seen.add(module);
  const read = <T>(key: string): T[] => (Reflect.getMetadata(key, type) as T[] | undefined) ?? [];
  const dynamic = 'module' in module ? module : undefined;
  const imports = [
    ...read<Type<unknown> | DynamicModule>(MODULE_METADATA.IMPORTS),
    ...(dynamic?.imports ?? []),
  ];
  return [
    ...read<Controller>(MODULE_METADATA.CONTROLLERS),
    ...((dynamic?.controllers ?? []) as Controller[]),
    ...imports
      .filter(
        (imported): imported is Type<unknown> | DynamicModule =>
          typeof imported === 'function' || 'module' in (imported as object),
      )
      .flatMap((imported) => controllersOf(imported, seen)),
  ];
}

/**
 * Refuses to start an application with a route that declares no authority: every route says once
 * who may call it (docs/authorization.md, "Routes"), so an undeclared one is a mistake, not a
 * public route.
 */
@Injectable()
export class RouteAuthorityCheck implements OnModuleInit {
  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const controllers = this.discovery
      .getControllers()
      .map((wrapper) => wrapper.metatype)
      .filter((metatype): metatype is Controller => typeof metatype === 'function');
    const undeclared = undeclaredRoutes(controllers);
    if (undeclared.length > 0) {
      throw new Error(
        `routes without a declared authority (one decorator of @platform/contract's authority kinds): ${undeclared.join(', ')}`,
      );
    }
  }
}

/** Imported by an application's root module: the start-up check above. */
@Module({ imports: [DiscoveryModule], providers: [RouteAuthorityCheck] })
export class RouteAuthorityModule {}
