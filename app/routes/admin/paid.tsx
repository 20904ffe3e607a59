/** /paid: the Users table limited to paid plans (the module reads its own path). */
export { action, default, loader } from './users';
export const meta = () => [{ title: 'Paid Users | Admin Panel' }];
