export * from './saml-identity-provider';
export * from './saml-document';
export * from './saml-metadata';
export * from './saml-assertion-validator';
export * from './saml-attributes';
export * from './saml-registry';
export * from './saml-sign-in';
