import type { FormRule } from 'antd';
import type { RuleObject } from 'antd/es/form';

/**
 * A form rule that passes a value `test` accepts and refuses any other with `message`. The empty
 * value passes: whether a field may be left empty is its `required` rule's say, with its own text.
 */
export const validIf = <V = string>(test: (value: V) => boolean, message: string): RuleObject => ({
  validator: (_, value: V | undefined) =>
    !value || test(value) ? Promise.resolve() : Promise.reject(new Error(message)),
});

/**
 * A required text field of `min`-`max` characters, in the words the storefront's forms use
 * (请输入企业名称, 企业名称为 4-60 个字); spaces alone count as empty.
 */
export const lengthRules = (
  name: string,
  { min, max, requiredMessage = `请输入${name}` }: { min: number; max: number; requiredMessage?: string },
): FormRule[] => [
  { required: true, whitespace: true, message: requiredMessage },
  { min, max, message: `${name}为 ${min}-${max} 个字` },
];
