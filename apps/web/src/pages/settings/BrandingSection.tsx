import {
  Alert,
  Button,
  ColorInput,
  ColorSwatch,
  FileButton,
  Group,
  Image,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { ACCENT_COLOR_PATTERN, type Branding, canChangeOrganization, LOGO_MAX_BYTES, LOGO_TYPES } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { useBranding, useRemoveLogo, useSetAccentColor, useUploadLogo } from '../../api/branding.ts';
import { errorMessage } from '../../api/error-messages.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { notifications } from '../../components/notifications.ts';
import { useTranslation } from '../../i18n/index.ts';
import { useSession } from '../../session/use-session.ts';
import { checkUpload, formatBytes, type UploadProblem } from './upload-check.ts';

/**
 * Settings → logo and colour (SPEC §2): what the organization's public pages show, the shareable
 * terminal first. Managers see it read-only (SPEC §6).
 */
export function BrandingSection() {
  const { t } = useTranslation();
  const branding = useBranding();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={560} component="section" aria-labelledby="settings-branding">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="settings-branding">
            {t('branding.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('branding.description')}
          </Text>
        </div>
        {branding.isPending && <Skeleton h={160} />}
        {branding.isError && <LoadError error={branding.error} onRetry={() => branding.refetch()} />}
        {branding.data && (
          <>
            <LogoEditor branding={branding.data} />
            <ColorEditor key={branding.data.accentColor ?? ''} branding={branding.data} />
          </>
        )}
      </Stack>
    </Paper>
  );
}

function LogoEditor({ branding }: { branding: Branding }) {
  const { t } = useTranslation();
  const editable = canChangeOrganization(useSession().role);
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const [problem, setProblem] = useState<UploadProblem | null>(null);

  const choose = (file: File | null) => {
    upload.reset();
    remove.reset();
    if (!file) return;
    const found = checkUpload(file, { maxBytes: LOGO_MAX_BYTES, types: LOGO_TYPES });
    setProblem(found ?? null);
    if (!found) {
      upload.mutate(file, { onSuccess: () => notifications.show({ color: 'teal', message: t('branding.logoSaved') }) });
    }
  };

  const failure = upload.error ?? remove.error;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('branding.logo')}
      </Text>
      {branding.logo ? (
        <Image
          src={branding.logo.url}
          alt={t('branding.logoAlt')}
          h={72}
          w="auto"
          maw={240}
          fit="contain"
          // Contained images are centred in their box; a logo reads from the left edge like the text.
          style={{ objectPosition: 'left center' }}
          data-testid="branding-logo"
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('branding.noLogo')}
        </Text>
      )}
      {editable && (
        <>
          <Text size="xs" c="dimmed">
            {t('branding.logoHint', { size: formatBytes(LOGO_MAX_BYTES) })}
          </Text>
          <Group gap="sm">
            <FileButton onChange={choose} accept={LOGO_TYPES.join(',')}>
              {(props) => (
                <Button {...props} variant="light" loading={upload.isPending}>
                  {t(branding.logo ? 'branding.replaceLogo' : 'branding.uploadLogo')}
                </Button>
              )}
            </FileButton>
            {branding.logo && (
              <Button variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                {t('branding.removeLogo')}
              </Button>
            )}
          </Group>
        </>
      )}
      {problem && (
        <Alert color="red" variant="light" role="alert">
          {t(problem.key, problem.values)}
        </Alert>
      )}
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(t, failure)}
        </Alert>
      )}
    </Stack>
  );
}

function ColorEditor({ branding }: { branding: Branding }) {
  const { t } = useTranslation();
  const editable = canChangeOrganization(useSession().role);
  const save = useSetAccentColor();
  const [color, setColor] = useState(branding.accentColor ?? '');
  const [invalid, setInvalid] = useState(false);

  const send = (accentColor: string | null) =>
    save.mutate(accentColor, {
      onSuccess: () => notifications.show({ color: 'teal', message: t('branding.colorSaved') }),
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = color.trim();
    const valid = ACCENT_COLOR_PATTERN.test(value);
    setInvalid(!valid);
    if (valid) send(value);
  };

  if (!editable) {
    return (
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {t('branding.color')}
        </Text>
        {branding.accentColor ? (
          <Group gap="xs">
            <ColorSwatch color={branding.accentColor} size={20} />
            <Text size="sm">{branding.accentColor}</Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('branding.defaultColor')}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t('branding.readOnly')}
        </Text>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <ColorInput
          label={t('branding.color')}
          description={t('branding.colorHint')}
          placeholder="#0a7d5a"
          format="hex"
          value={color}
          onChange={(value) => {
            save.reset();
            setInvalid(false);
            setColor(value);
          }}
          error={invalid && t('branding.invalidColor')}
          maw={240}
        />
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(t, save.error)}
          </Alert>
        )}
        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>
            {t('branding.saveColor')}
          </Button>
          {branding.accentColor && (
            <Button variant="subtle" onClick={() => send(null)} disabled={save.isPending}>
              {t('branding.useDefaultColor')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
