import { Center, Loader } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router';

/** A layout's outlet: pages load on first visit, so the layout stays while a page's code arrives. */
export function PageOutlet() {
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader />
        </Center>
      }
    >
      <Outlet />
    </Suspense>
  );
}
