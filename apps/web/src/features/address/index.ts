export { AddressBook, AddressPicker } from './AddressBook.tsx';
