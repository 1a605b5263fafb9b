export { FlashSale, ProductFlashSale } from './FlashSale.tsx';
export { Turntable } from './Turntable.tsx';
