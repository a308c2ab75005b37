import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { routeHandlersOf } from '@platform/contract';
import { PLATFORM_ADMIN } from '@platform/domain';
import { controllersOf, declaredAuthority, undeclaredRoutes } from '@platform/http';
import { AdminApiGuard } from './admin-api.guard';
import { ControlPlaneModule } from '../app.module';
import { InternalGuard } from './internal.guard';

/** Every route of the control plane, with what it declares and the guards it runs. */
const routes = controllersOf(ControlPlaneModule).flatMap((controller) =>
  routeHandlersOf(controller).map(([name, handler]) => {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const path = `/${[base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].filter((p) => p && p !== '/').join('/')}`;
    const guards = [
      ...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? []),
      ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? []),
    ];
    return {
      route: `${controller.name}.${name} ${path}`,
      path,
      authority: declaredAuthority(controller, handler),
      guards,
    };
  }),
);

/** The public routes: the key set, health, the published audit checkpoint and the metrics. */
const PUBLIC = ['/api/v1/jwks', '/health', '/livez', '/readyz', '/api/v1/audit/checkpoint', '/metrics'];

describe('the authority of every control-plane route', () => {
  it('finds the routes (the walk works)', () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  it('declares who may call each route (or the control plane does not start)', () => {
    expect(undeclaredRoutes(controllersOf(ControlPlaneModule))).toEqual([]);
  });

  it('serves /internal/v1 to our own processes only, with the internal token', () => {
    const wrong = routes
      .filter(({ path }) => path.startsWith('/internal/'))
      .filter(
        ({ authority, guards }) =>
          authority?.permission !== 'internal' || guards.join() !== [InternalGuard].join(),
      )
      .map(({ route }) => route);
    expect(wrong).toEqual([]);
  });

  it('serves /api/v1 to platform administrators, checked again with their token, but for the public routes', () => {
    const wrong = routes
      .filter(({ path }) => path.startsWith('/api/') && !PUBLIC.includes(path))
      .filter(
        ({ authority, guards }) =>
          authority?.permission !== PLATFORM_ADMIN || guards.join() !== [AdminApiGuard].join(),
      )
      .map(({ route }) => route);
    expect(wrong).toEqual([]);
  });

  it('declares the public routes as such, without a guard', () => {
    const declared = routes.filter(({ authority }) => authority?.permission === 'none');
    expect(declared.map(({ path }) => path).sort()).toEqual([...PUBLIC].sort());
    expect(declared.filter(({ guards }) => guards.length > 0)).toEqual([]);
  });
});
