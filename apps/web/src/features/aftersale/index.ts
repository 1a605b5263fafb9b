export { AfterSaleCase } from './components/AfterSaleCase.tsx';
export { AfterSaleEntry } from './components/AfterSaleEntry.tsx';
export { AfterSaleList } from './components/AfterSaleList.tsx';
