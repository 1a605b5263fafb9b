/** Every table of every module, for Drizzle's query API and drizzle-kit. */

export * from '../modules/activity/activity.tables';
export * from '../modules/activity/bargain.tables';
export * from '../modules/activity/benefit.tables';
export * from '../modules/activity/group.tables';
export * from '../modules/address/address.tables';
export * from '../modules/admin/admin.tables';
export * from '../modules/aftersale/aftersale.tables';
export * from '../modules/approval/approval.tables';
export * from '../modules/cart/cart.tables';
export * from '../modules/catalog/catalog.tables';
export * from '../modules/identity/identity.tables';
export * from '../modules/media/media.tables';
export * from '../modules/merchant/merchant.tables';
export * from '../modules/order/order.tables';
export * from '../modules/packs/card-issue.tables';
export * from '../modules/packs/packs.tables';
export * from '../modules/payment/payment.tables';
export * from '../modules/points/points.tables';
export * from '../modules/provider/provider.tables';
export * from '../modules/service/service.tables';
export * from '../modules/site/site.tables';
export * from '../modules/vip/vip.tables';
export * from '../modules/voucher/voucher.tables';
