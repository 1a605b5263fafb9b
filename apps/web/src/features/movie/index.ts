export { MovieFlow } from './MovieFlow.tsx';
export { TopupForm } from './TopupForm.tsx';
