import { Center, Loader } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';

/** What stands in for a page while its code arrives. */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}

/** A layout's outlet: pages load on first visit, so the layout stays while a page's code arrives. */
export function PageOutlet() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}
