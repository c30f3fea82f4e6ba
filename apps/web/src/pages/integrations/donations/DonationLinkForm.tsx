import { Alert, Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { DEFAULT_DONATION_COMMENT_LENGTH, MAX_DONATION_COMMENT_LENGTH, MAX_DONATION_SATS } from '@rayo/shared';
import { type FormEvent, useState } from 'react';
import { useCreateDonationLink, useVirtualBptChoices } from '../../../api/donations.ts';
import { errorMessage } from '../../../api/error-messages.ts';
import { notifications } from '../../../components/notifications.ts';
import { useTranslation } from '../../../i18n/index.ts';

/** A new donation link: the virtual BPT selling it, what it is for, and an optional fixed amount. */
export function DonationLinkForm() {
  const { t } = useTranslation();
  const virtualBpts = useVirtualBptChoices(true);
  const create = useCreateDonationLink();
  const [virtualBptId, setVirtualBptId] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [amount, setAmount] = useState<number | string>('');
  const [commentAllowed, setCommentAllowed] = useState<number | string>(DEFAULT_DONATION_COMMENT_LENGTH);
  const [missing, setMissing] = useState<{ virtualBpt?: string; title?: string }>({});

  const choices = (virtualBpts.data ?? []).map((v) => ({ value: v.id, label: `${v.name} · ${v.currency}` }));
  const chosen = virtualBptId ?? choices[0]?.value ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = {
      virtualBpt: chosen ? undefined : t('donations.form.virtualBptRequired'),
      title: title.trim() ? undefined : t('donations.form.titleRequired'),
    };
    setMissing(problems);
    if (!chosen || problems.title) return;
    create.mutate(
      {
        virtualBptId: chosen,
        title: title.trim(),
        description: description.trim(),
        amountSats: amount === '' ? null : Number(amount),
        commentAllowed: commentAllowed === '' ? 0 : Number(commentAllowed),
      },
      {
        onSuccess: () => {
          setTitle('');
          setDescription('');
          setAmount('');
          notifications.show({ color: 'teal', message: t('donations.form.created') });
        },
      },
    );
  };

  if (virtualBpts.isSuccess && choices.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('donations.form.noVirtualBpt')}
      </Text>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-labelledby="donation-link-form">
      <Stack gap="sm">
        <Title order={3} size="h5" id="donation-link-form">
          {t('donations.form.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('donations.form.virtualBpt')}
            data={choices}
            value={chosen}
            onChange={setVirtualBptId}
            allowDeselect={false}
            error={missing.virtualBpt}
            required
          />
          <TextInput
            label={t('donations.form.titleLabel')}
            value={title}
            maxLength={100}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={missing.title}
            required
          />
          <TextInput
            label={t('donations.form.descriptionLabel')}
            value={description}
            maxLength={300}
            onChange={(event) => setDescription(event.currentTarget.value)}
          />
          <NumberInput
            label={t('donations.form.amountLabel')}
            description={t('donations.form.amountHint')}
            value={amount}
            onChange={setAmount}
            min={1}
            max={MAX_DONATION_SATS}
            allowDecimal={false}
            allowNegative={false}
          />
          <NumberInput
            label={t('donations.form.commentLabel')}
            description={t('donations.form.commentHint')}
            value={commentAllowed}
            onChange={setCommentAllowed}
            min={0}
            max={MAX_DONATION_COMMENT_LENGTH}
            allowDecimal={false}
            allowNegative={false}
          />
        </SimpleGrid>
        {create.isError && (
          <Alert color="red" role="alert">
            {errorMessage(t, create.error)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={create.isPending}>
            {t('donations.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
