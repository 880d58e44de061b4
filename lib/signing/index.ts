export { sign, signingText, verifySignature, type SignableFields } from './sign';
