/** The member-price rule lives in the contract, shared with the storefront's shown prices. */
export { memberUnitPrice } from '@sitemall/contract';
