import { ActionIcon, Group } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

/** The edit and delete buttons at the end of a table row; their labels name the row for screen readers. */
export function EditDeleteActions(props: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Group gap="xs" wrap="nowrap">
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={props.editLabel} onClick={props.onEdit}>
        <IconPencil size={18} />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" size="lg" aria-label={props.deleteLabel} onClick={props.onDelete}>
        <IconTrash size={18} />
      </ActionIcon>
    </Group>
  );
}
