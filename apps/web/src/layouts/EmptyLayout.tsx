import { Outlet } from 'react-router';

/** A pass-through layout: the page draws everything itself. */
export function EmptyLayout() {
  return <Outlet />;
}
