import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { type Address, type CartItem, ENCRYPTION } from '@sitemall/contract';
import { LOCAL_KEYS, setItem, setSiteId } from '../site/storage.ts';

/** A buyable cart line of site 719's own goods; `id` also numbers its product and name. */
export const cartLine = (id: number, over: Partial<CartItem> = {}): CartItem => ({
  id,
  itemId: 100 + id,
  num: 1,
  specificationId: 200 + id,
  specificationValue: '默认',
  productSpecifications: [],
  name: `商品${id}`,
  image: '',
  orderType: 0,
  source: { source: 1, type: 1, name: '自营', hasAddressTab: true },
  price: 1000,
  stock: 50,
  limitNum: 0,
  isOnSale: true,
  isSelected: true,
  isValid: true,
  msg: '',
  ...over,
});

/** The getCartProduct answer for these lines. */
export const cartAnswer = (list: CartItem[]) => ({
  obj: { list, count: list.reduce((s, l) => s + l.num, 0), selectedCount: 0, selectedAmount: 0 },
});

export const address = (id: number, over: Partial<Address> = {}): Address => ({
  id,
  consignee: '张三',
  phone: '13800000719',
  provinceCode: '320000',
  provinceName: '江苏省',
  cityCode: '320100',
  cityName: '南京市',
  districtCode: '320102',
  districtName: '玄武区',
  detail: '中山路1号',
  isDefault: true,
  ...over,
});

/** A member of site 719 is logged in on this browser. */
export function logInMember(siteId = '719'): void {
  localStorage.clear();
  sessionStorage.clear();
  setSiteId(siteId);
  setItem(LOCAL_KEYS.token, 'member-token', { siteId });
}

/**
 * The server's password key for identityApi.publicKey, and `reveal`, which reads a secret
 * field as the server would (so a test sees that what was typed left the page encrypted).
 */
export function serverKey() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    answer: {
      algorithm: ENCRYPTION.algorithm,
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      spki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      maxSkewMs: ENCRYPTION.maxSkewMs,
    },
    reveal: (ciphertext: unknown): string =>
      (
        JSON.parse(
          privateDecrypt(
            { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
            Buffer.from(String(ciphertext), 'base64'),
          ).toString('utf8'),
        ) as { v: string }
      ).v,
  };
}
