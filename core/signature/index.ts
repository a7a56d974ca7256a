export { diagnoseSignature } from './diagnose.ts';
export {
  DELIVERY_FORMS,
  formOfHeader,
  type DeliveryForm,
  type EndpointForm,
  SIGNATURE_FORMS,
  SIGNATURE_HEADER,
  SIGNATURE_PREFIX,
  type SignatureForm,
} from './forms.ts';
export { signatureHeaders, signatureHex, signatureValue } from './sign.ts';
export {
  headerValue,
  verifyRequest,
  verifySignature,
} from './verify.ts';
