// class-transformer ships this module's types apart from its code (the way
// class-validator-jsonschema's README imports it).
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
