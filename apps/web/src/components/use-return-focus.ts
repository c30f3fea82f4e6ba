import { useEffect, useState } from 'react';

/**
 * For a dialog that is mounted only while open: Mantine returns the focus when `opened` turns
 * false, which never happens to a dialog that simply unmounts. This gives the focus back to what
 * had it when the dialog mounted (the button that opened it), if it is still on the page.
 */
export function useReturnFocus(): void {
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  useEffect(
    () => () => {
      // After the dialog's own focus trap has let go.
      setTimeout(() => {
        if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      }, 0);
    },
    [opener],
  );
}
