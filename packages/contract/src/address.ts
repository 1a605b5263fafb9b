import { type Static, Type } from '@sinclair/typebox';
import { endpoint } from './endpoint.ts';
import { Envelope } from './envelope.ts';
import { Id as IdOf } from './numbers.ts';
import { SiteId } from './site.ts';

/**
 * Delivery addresses (/myAddress; spec section 7 "Addresses: list, save, delete, set default,
 * get default, district list"). Districts are China's administrative divisions (GB/T 2260,
 * six-digit codes). A member has at most one default address.
 */

export const MAX_ADDRESSES = 20;

export const ADDRESS_MSG = {
  notFound: '收货地址不存在',
  badMobile: '请输入正确的手机号',
  badName: '请输入收货人姓名（1-20 字）',
  badDetail: '请输入详细地址（1-120 字）',
  badDistrict: '请选择正确的省市区',
  tooMany: `收货地址最多 ${MAX_ADDRESSES} 个`,
  saved: '保存成功',
  deleted: '删除成功',
} as const;

const Id = IdOf();
const Code = Type.String({ pattern: '^\\d{6}$', description: 'GB/T 2260 six-digit code' });

export const Address = Type.Object({
  id: Type.Integer(),
  consignee: Type.String(),
  phone: Type.String(),
  provinceCode: Type.String(),
  provinceName: Type.String(),
  cityCode: Type.String(),
  cityName: Type.String(),
  districtCode: Type.String({ description: 'empty when the city has no districts' }),
  districtName: Type.String(),
  detail: Type.String(),
  isDefault: Type.Boolean(),
});
export type Address = Static<typeof Address>;

/** POST /api/address/list */
export const AddressListBody = Type.Object({ siteId: SiteId });
export const AddressList = Type.Object({ list: Type.Array(Address) });
export type AddressList = Static<typeof AddressList>;
export const AddressListReply = Envelope(AddressList);

/**
 * POST /api/address/save: creates (no id) or updates (id). The names are looked up from the
 * codes on the server. districtCode may be empty only where the city has no districts.
 */
export const SaveAddressBody = Type.Object({
  siteId: SiteId,
  id: Type.Optional(Id),
  consignee: Type.String({ minLength: 1, maxLength: 20 }),
  phone: Type.String({ maxLength: 20 }),
  provinceCode: Code,
  cityCode: Code,
  districtCode: Type.Optional(Type.String({ pattern: '^(\\d{6})?$' })),
  detail: Type.String({ minLength: 1, maxLength: 120 }),
  isDefault: Type.Optional(Type.Boolean({ default: false })),
});
export type SaveAddressBody = Static<typeof SaveAddressBody>;
export const AddressReply = Envelope(Address);

/** POST /api/address/delete, POST /api/address/setDefault */
export const AddressIdBody = Type.Object({ siteId: SiteId, id: Id });
export type AddressIdBody = Static<typeof AddressIdBody>;
export const DeletedAddress = Type.Object({ id: Type.Integer() });
export const DeleteAddressReply = Envelope(DeletedAddress);

/** POST /api/address/getDefault: data null when the member has no address. */
export const DefaultAddressBody = Type.Object({ siteId: SiteId });
export const DefaultAddressReply = Envelope(Type.Union([Address, Type.Null()]));

/** POST /api/address/districtList: provinces without parentCode, else the children of that code. */
export const DistrictListBody = Type.Object({
  siteId: Type.Optional(SiteId),
  parentCode: Type.Optional(Type.String({ pattern: '^(\\d{6})?$' })),
});
export type DistrictListBody = Static<typeof DistrictListBody>;
export const District = Type.Object({
  code: Type.String(),
  name: Type.String(),
  hasChildren: Type.Boolean(),
});
export type District = Static<typeof District>;
export const DistrictList = Type.Object({ list: Type.Array(District) });
export type DistrictList = Static<typeof DistrictList>;
export const DistrictListReply = Envelope(DistrictList);

const member = { site: 'required', auth: 'required', tag: 'address' } as const;

/** The address book's endpoints (spec section 7) and the district list anyone may read. */
export const addressApi = {
  list: endpoint({
    ...member,
    method: 'POST',
    path: '/api/address/list',
    summary: '收货地址列表',
    body: AddressListBody,
    reply: AddressListReply,
  }),
  save: endpoint({
    ...member,
    method: 'POST',
    path: '/api/address/save',
    summary: '新增 / 修改收货地址',
    body: SaveAddressBody,
    reply: AddressReply,
  }),
  delete: endpoint({
    ...member,
    method: 'POST',
    path: '/api/address/delete',
    summary: '删除收货地址',
    body: AddressIdBody,
    reply: DeleteAddressReply,
  }),
  setDefault: endpoint({
    ...member,
    method: 'POST',
    path: '/api/address/setDefault',
    summary: '设为默认地址',
    body: AddressIdBody,
    reply: AddressReply,
  }),
  getDefault: endpoint({
    ...member,
    method: 'POST',
    path: '/api/address/getDefault',
    summary: '默认收货地址',
    body: DefaultAddressBody,
    reply: DefaultAddressReply,
  }),
  districtList: endpoint({
    method: 'POST',
    path: '/api/address/districtList',
    tag: 'address',
    summary: '省市区（GB/T 2260）',
    body: DistrictListBody,
    reply: DistrictListReply,
  }),
};
