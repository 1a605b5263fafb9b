import { Button } from 'antd';

/**
 * The trigger of a form that creates a record or edits one: a small link in the row it edits,
 * the toolbar's primary button when it creates.
 */
export const formTrigger = ({ editing, edit, create }: { editing: boolean; edit: string; create: string }) =>
  editing ? (
    <Button type="link" size="small">
      {edit}
    </Button>
  ) : (
    <Button type="primary">{create}</Button>
  );
