import { fenToYuan } from '@sitemall/contract';

/** Money in the console: yuan with two decimals and thousands grouped. */
export const yuan = (fen: number) => fenToYuan(fen, { grouped: true });
