import { AutoComplete, type AutoCompleteProps, Select, type SelectProps } from 'antd';

/**
 * antd's Form.Item marks a required control `aria-required`; Select and AutoComplete put it on
 * their root element, which has no role that allows it (axe: aria-allowed-attr). The field keeps
 * its visible required mark and its validation message; only the misplaced attribute goes.
 */
type WithAriaRequired<P> = P & { 'aria-required'?: boolean | 'true' | 'false' };

export function FormSelect(props: WithAriaRequired<SelectProps>) {
  const { 'aria-required': _required, ...rest } = props;
  return <Select {...rest} />;
}

export function FormAutoComplete(props: WithAriaRequired<AutoCompleteProps>) {
  const { 'aria-required': _required, ...rest } = props;
  return <AutoComplete {...rest} />;
}
