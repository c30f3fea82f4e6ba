import { Children, type ComponentType, isValidElement, lazy, type ReactNode, useState } from 'react';

/**
 * A screen whose code loads on its first use, so the first screen downloads only what it shows.
 * `preload` asks for it ahead; a screen whose code is already there renders at once, without a
 * round through its Suspense fallback (each mount keeps the form it started with).
 */
export function lazyPage<Props extends object = Record<string, never>>(load: () => Promise<ComponentType<Props>>) {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const preload = () => {
    loading ??= load().then((page) => {
      loaded = page;
      return page;
    });
    return loading;
  };
  const Lazy = lazy(async () => ({ default: await preload() }));
  // biome-ignore lint/correctness/noComponentHookFactories: called once per screen at module level, so each screen's component is the same on every render.
  function Page(props: Props) {
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Page, { preload });
}

/**
 * Starts loading every lazily loaded screen in a route's element, however deep it is wrapped: a
 * route whose layout and page both load on first use fetches them at once, instead of the page
 * only once the layout has arrived and rendered. Resolves once all are in, and rejects if one
 * fails to load, which the screen itself then shows when it renders.
 */
export function preloadLazyScreens(node: ReactNode): Promise<unknown> {
  if (!isValidElement<{ children?: ReactNode }>(node)) return Promise.resolve();
  const { preload } = node.type as { preload?: () => Promise<unknown> };
  const loads: Promise<unknown>[] = preload ? [preload()] : [];
  Children.forEach(node.props.children, (child) => {
    loads.push(preloadLazyScreens(child));
  });
  return Promise.all(loads);
}
