import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ADDRESS_MSG,
  AddressIdBody,
  AddressListBody,
  AddressListReply,
  AddressReply,
  DefaultAddressBody,
  DefaultAddressReply,
  DeleteAddressReply,
  DistrictListBody,
  DistrictListReply,
  SaveAddressBody,
} from '@sitemall/contract';
import { ok } from '../../lib/envelope';
import { memberCtx } from '../cart/cart.service';
import {
  defaultAddress,
  deleteAddress,
  listAddresses,
  saveAddress,
  setDefaultAddress,
} from './address.service';
import { districtList } from './districts';

/** Delivery addresses (/myAddress) and the district list. */
export const addressRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['address'];
  const config = { auth: 'required' as const, site: 'required' as const };

  app.post(
    '/api/address/list',
    {
      config,
      schema: { tags, summary: '收货地址列表', body: AddressListBody, response: { 200: AddressListReply } },
    },
    async (req) => ok({ list: await listAddresses(memberCtx(req.ctx)) }),
  );
  app.post(
    '/api/address/save',
    {
      config,
      schema: {
        tags,
        summary: '新增 / 修改收货地址',
        body: SaveAddressBody,
        response: { 200: AddressReply },
      },
    },
    async (req) => ok(await saveAddress(memberCtx(req.ctx), req.body), ADDRESS_MSG.saved),
  );
  app.post(
    '/api/address/delete',
    {
      config,
      schema: { tags, summary: '删除收货地址', body: AddressIdBody, response: { 200: DeleteAddressReply } },
    },
    async (req) => {
      await deleteAddress(memberCtx(req.ctx), req.body.id);
      return ok({ id: req.body.id }, ADDRESS_MSG.deleted);
    },
  );
  app.post(
    '/api/address/setDefault',
    {
      config,
      schema: { tags, summary: '设为默认地址', body: AddressIdBody, response: { 200: AddressReply } },
    },
    async (req) => ok(await setDefaultAddress(memberCtx(req.ctx), req.body.id)),
  );
  app.post(
    '/api/address/getDefault',
    {
      config,
      schema: {
        tags,
        summary: '默认收货地址',
        body: DefaultAddressBody,
        response: { 200: DefaultAddressReply },
      },
    },
    async (req) => ok(await defaultAddress(memberCtx(req.ctx))),
  );
  app.post(
    '/api/address/districtList',
    {
      schema: {
        tags,
        summary: '省市区（GB/T 2260）',
        body: DistrictListBody,
        response: { 200: DistrictListReply },
      },
    },
    async (req) => ok({ list: districtList(req.body.parentCode) }),
  );
};
