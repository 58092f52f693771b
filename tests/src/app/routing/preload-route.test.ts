import type { RouteObject } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { preloadRoute, routes, type PreloadableComponent } from '#src/app/routing/routes.tsx';

const component = () => Object.assign(() => null, { preload: vi.fn(async () => undefined) }) as PreloadableComponent & { preload: ReturnType<typeof vi.fn> };

describe('preloadRoute (issue 22)', () => {
  it('should start the code of the layout and the page of an address together, and nothing else', () => {
    const layout = component();
    const list = component();
    const detail = component();
    const signIn = component();
    const table: RouteObject[] = [
      { path: 'login', Component: signIn },
      {
        Component: layout,
        children: [
          {
            path: 'users',
            children: [
              { index: true, Component: list },
              { path: ':userId', Component: detail },
            ],
          },
        ],
      },
    ];
    preloadRoute('/users', table);
    expect(layout.preload).toHaveBeenCalledOnce();
    expect(list.preload).toHaveBeenCalledOnce();
    expect(detail.preload).not.toHaveBeenCalled();
    expect(signIn.preload).not.toHaveBeenCalled();
    preloadRoute('/login', table);
    expect(signIn.preload).toHaveBeenCalledOnce();
    expect(layout.preload).toHaveBeenCalledOnce();
  });

  it('should give every lazy page of the route table a preload', () => {
    const pages: PreloadableComponent[] = [];
    const walk = (table: RouteObject[]) =>
      table.forEach((route) => {
        if (route.Component) pages.push(route.Component as PreloadableComponent);
        walk(route.children ?? []);
      });
    walk(routes);
    expect(pages.length).toBeGreaterThan(10);
    for (const page of pages) expect(typeof page.preload).toBe('function');
  });
});
