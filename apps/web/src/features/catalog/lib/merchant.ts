import { CREDIT_CODE_PATTERN, LICENCE_MAX_BYTES } from '@sitemall/contract';

/** Licence pictures the server takes: PNG, JPEG or WebP, at most LICENCE_MAX_BYTES (2 MB). */
export const LICENCE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** Why a chosen licence file cannot be uploaded, or null when it can. */
export function licenceFileProblem(file: { type: string; size: number }): string | null {
  if (!(LICENCE_TYPES as readonly string[]).includes(file.type))
    return '营业执照仅支持 PNG、JPG、WebP 格式的图片';
  if (file.size > LICENCE_MAX_BYTES) return `营业执照图片不能超过 ${LICENCE_MAX_BYTES / 1024 / 1024}MB`;
  if (file.size === 0) return '营业执照图片是空文件';
  return null;
}

const CREDIT_CODE = new RegExp(CREDIT_CODE_PATTERN);
/** Unified social credit code as the server checks it (18 characters, capitals and digits). */
export const isCreditCode = (value: string): boolean => CREDIT_CODE.test(value);
