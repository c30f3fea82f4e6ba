import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Checks the page as it is now; each screen's findings are a failure of their own, listed by rule,
 * impact and element, and the test goes on to the next screen.
 */
export async function expectAccessible(page: Page, screen: string) {
  // Legacy mode runs axe in the page itself: the default opens a blank page per run to merge the
  // frames' results, which on a busy machine doubles the time and this page has no frames.
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze();
  const findings = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => {
      const targets = violation.nodes.map((node) => node.target.join(' '));
      const shown = targets.slice(0, 4).join(' | ') + (targets.length > 4 ? ` | … ${targets.length - 4} more` : '');
      return `${violation.id} (${violation.impact}, ${targets.length}×): ${shown}`;
    });
  expect.soft(findings, `serious or critical WCAG violations on ${screen}`).toEqual([]);
}
