import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import {
  allOperations,
  internalPathOf,
  type Operation,
  routeHandlersOf,
  routeShapeOf,
} from '@platform/contract';
import { controllersOf } from '@platform/http';
import { ControlPlaneModule } from '../app.module';
import { IMPLEMENTED_OPERATIONS } from './implements';

/** Every route handler of the control plane, with the entries it implements. */
const handlers = controllersOf(ControlPlaneModule).flatMap((controller) =>
  routeHandlersOf(controller).map(([name, handler]) => ({
    name: `${controller.name}.${name}`,
    route: `${RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number]} /${[
      Reflect.getMetadata(PATH_METADATA, controller) as string,
      Reflect.getMetadata(PATH_METADATA, handler) as string,
    ]
      .filter((part) => part !== '' && part !== '/')
      .join('/')}`,
    entries: (Reflect.getMetadata(IMPLEMENTED_OPERATIONS, handler) as Operation[] | undefined) ?? [],
  })),
);

describe('the operation tables and the control plane', () => {
  it('finds the routes and the entries (the walks work)', () => {
    expect(handlers.length).toBeGreaterThan(50);
    expect(allOperations().length).toBeGreaterThan(0);
  });

  it('gives every control-plane route an entry', () => {
    expect(
      handlers.filter(({ entries }) => entries.length === 0).map(({ name, route }) => `${name} ${route}`),
    ).toEqual([]);
  });

  it('gives every entry exactly one handler, on the entry’s method and control-plane route', () => {
    const served = new Map<string, string[]>();
    for (const { name, route, entries } of handlers) {
      for (const entry of entries) {
        expect(routeShapeOf(route)).toBe(routeShapeOf(`${entry.method} /${internalPathOf(entry)}`));
        served.set(entry.id, [...(served.get(entry.id) ?? []), name]);
      }
    }
    const unpaired = allOperations()
      .filter((entry) => served.get(entry.id)?.length !== 1)
      .map((entry) => `${entry.id}: ${served.get(entry.id)?.join(', ') ?? 'no handler'}`);
    expect(unpaired).toEqual([]);
  });

  it('names each operation once', () => {
    const ids = allOperations().map(({ id }) => id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});
