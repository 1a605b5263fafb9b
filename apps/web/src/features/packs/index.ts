export { MyCards } from './MyCards.tsx';
