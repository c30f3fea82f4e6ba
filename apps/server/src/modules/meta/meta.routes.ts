import { type DemoDataState, HealthSchema, PublicConfigSchema, ReadinessSchema } from '@rayo/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { App } from '../../http/app-type.ts';
import { checkReadiness } from './meta.service.ts';

export function registerMetaRoutes(
  app: App,
  deps: { db: Db; config: Config; demoData?: { state: DemoDataState }; lifecycle?: { draining: boolean } },
): void {
  app.get('/api/health', { schema: { tags: ['meta'], response: { 200: HealthSchema } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get('/api/ready', { schema: { tags: ['meta'], response: { 200: ReadinessSchema } } }, async (request) => {
    await checkReadiness(deps, request.log);
    return { status: 'ready' as const, ...(deps.demoData && { demoData: deps.demoData.state }) };
  });

  app.get('/api/public-config', { schema: { tags: ['meta'], response: { 200: PublicConfigSchema } } }, async () => ({
    supportEmail: deps.config.supportEmail,
    devnet: deps.config.lightning.backend === 'devnet',
    ecwid: {
      sdkUrl: deps.config.shops.ecwidSdkUrl,
      cssUrl: deps.config.shops.ecwidCssUrl,
      appId: deps.config.shops.ecwidAppId,
    },
  }));
}
