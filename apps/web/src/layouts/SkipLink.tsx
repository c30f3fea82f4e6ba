import { Anchor } from '@mantine/core';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from '../i18n/index.ts';

/** Where the skip link leads: the page's main region, which takes the focus. */
export const MAIN_CONTENT_ID = 'main-content';

// Off screen but read and reachable, until the keyboard reaches it (WCAG 2.4.1).
const hidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
};
const shown: CSSProperties = {
  position: 'fixed',
  top: 8,
  left: 8,
  zIndex: 1000,
  padding: '8px 16px',
  background: 'var(--mantine-color-body)',
  boxShadow: 'var(--mantine-shadow-md)',
  borderRadius: 'var(--mantine-radius-sm)',
};

/** The first stop of the keyboard on a signed-in screen: past the menu, straight to the page. */
export function SkipLink() {
  const { t } = useTranslation();
  const [focused, setFocused] = useState(false);
  return (
    <Anchor
      href={`#${MAIN_CONTENT_ID}`}
      style={focused ? shown : hidden}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onClick={(event) => {
        // The router would treat the hash as a navigation; moving the focus is all that is wanted.
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
    >
      {t('nav.skipToContent')}
    </Anchor>
  );
}
