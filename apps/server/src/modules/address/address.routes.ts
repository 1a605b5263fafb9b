import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADDRESS_MSG, addressApi } from '@sitemall/contract';
import { ok } from '../../lib/envelope';
import { serve } from '../../lib/serve';
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
  serve(app, addressApi.list, async (req) => ok({ list: await listAddresses(memberCtx(req.ctx)) }));

  serve(app, addressApi.save, async (req) =>
    ok(await saveAddress(memberCtx(req.ctx), req.body), ADDRESS_MSG.saved),
  );

  serve(app, addressApi.delete, async (req) => {
    await deleteAddress(memberCtx(req.ctx), req.body.id);
    return ok({ id: req.body.id }, ADDRESS_MSG.deleted);
  });

  serve(app, addressApi.setDefault, async (req) =>
    ok(await setDefaultAddress(memberCtx(req.ctx), req.body.id)),
  );

  serve(app, addressApi.getDefault, async (req) => ok(await defaultAddress(memberCtx(req.ctx))));

  serve(app, addressApi.districtList, async (req) => ok({ list: districtList(req.body.parentCode) }));
};
