export { deliveryApi } from './api/delivery-api.ts';
