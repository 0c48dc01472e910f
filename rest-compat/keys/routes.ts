import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import { identifier } from '../../lib/input.js';
import { keysInputs, subjectFields } from '../../subgraphs/keys/inputs.js';
import * as ops from '../../generated/graphql/keys.operations.js';
import { operation } from '../operations.js';
import { defineRoute, pathParam, present, type RestRoute } from '../route.js';

const { schemas, codeFor } = keysInputs;
const text = identifier();

const record = z.object({ certSignRequest: z.string().nullable(), certificate: z.string(), issuedAt: z.string(), expiryAt: z.string(), timestamp: z.string() });
const uploaded = z.object({ status: z.string(), timestamp: z.string() });

const csrRequest = z.object({ applicationId: text, referenceId: text.nullish(), ...subjectFields });
type CsrRequest = z.infer<typeof csrRequest>;
const subjectOf = ({ commonName, country, state, location, organization, organizationUnit }: CsrRequest) => ({
  commonName,
  country,
  state,
  location,
  organization,
  organizationUnit,
});
/** REST's crypto requests may carry prependThumbprint (always true here): accepted, not passed on. */
const crypto = schemas.encrypt.extend({ prependThumbprint: z.boolean().nullish() });
type Crypto = z.infer<typeof crypto>;

const kmsCode = (field: string, missing: boolean) => codeFor(field, missing, 'generateCsr');
const cryCode = (field: string, missing: boolean) => codeFor(field, missing, 'encrypt');
const machineCode = (field: string, missing: boolean) => codeFor(field, missing, 'uploadMachinePublicKey');
const cryptoVariables = ({ applicationId, referenceId, data, aad, salt, timeStamp }: Crypto) => ({ applicationId, referenceId, data, aad, salt, timeStamp });

/** encrypt and decrypt: one request shape, one answer shape, one set of codes. */
const cryptoRoute = <Data>(
  name: 'encrypt' | 'decrypt',
  summary: string,
  document: TypedDocumentNode<Data, ReturnType<typeof cryptoVariables>>,
  result: (data: Data) => { data: string },
) =>
  defineRoute({
    method: 'post',
    path: `/v1/cryptomanager/${name}`,
    summary,
    id: `io.platform.cryptomanager.${name}`,
    input: { from: 'envelope', schema: crypto },
    operation: operation(document),
    variables: cryptoVariables,
    response: z.object({ data: z.string() }),
    result,
    codeFor: cryCode,
    internalErrorCode: 'KER-CRY-500',
  });

export const keysRoutes: RestRoute[] = [
  defineRoute({
    method: 'post',
    path: '/v1/keymanager/generateCSR',
    summary: 'Generate a CSR for the key in force of an application (or reference)',
    id: 'io.platform.keymanager.generateCSR',
    input: { from: 'envelope', schema: csrRequest },
    operation: operation(ops.GenerateCsrDocument),
    variables: (input) => ({ applicationId: input.applicationId, referenceId: input.referenceId, subject: subjectOf(input) }),
    response: record,
    result: (data) => data.generateCsr,
    codeFor: kmsCode,
    internalErrorCode: 'KER-KMS-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/keymanager/generateMasterKey/{objectType}',
    summary: 'Generate (force: rotate) a master or reference key; objectType Certificate or CSR',
    id: 'io.platform.keymanager.generateMasterKey',
    input: { from: 'envelope', schema: csrRequest.extend({ force: z.boolean() }) },
    operation: operation(ops.GenerateMasterKeyDocument),
    variables: (input, req) => ({
      objectType: pathParam(req, 'objectType'),
      applicationId: input.applicationId,
      referenceId: input.referenceId,
      force: input.force,
      subject: subjectOf(input),
    }),
    response: record,
    result: (data) => data.generateMasterKey,
    codeFor: kmsCode,
    internalErrorCode: 'KER-KMS-500',
  }),
  defineRoute({
    method: 'get',
    path: '/v1/keymanager/getCertificate',
    summary: 'The certificate of the key in force',
    id: 'io.platform.keymanager.getCertificate',
    input: { from: 'query', schema: schemas.certificate },
    operation: operation(ops.GetCertificateDocument),
    variables: (input) => input,
    response: record,
    result: (data) => data.certificate,
    codeFor: kmsCode,
    internalErrorCode: 'KER-KMS-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/keymanager/uploadCertificate',
    summary: 'Replace a generated certificate by a CA-signed one for the same key',
    id: 'io.platform.keymanager.uploadCertificate',
    input: { from: 'envelope', schema: schemas.uploadCertificate },
    operation: operation(ops.UploadCertificateDocument),
    variables: (input) => input,
    response: uploaded,
    result: (data) => data.uploadCertificate,
    codeFor: kmsCode,
    internalErrorCode: 'KER-KMS-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/keymanager/uploadOtherDomainCertificate',
    summary: "Store another domain's certificate (e.g. the ABIS partner's) to encrypt towards it",
    id: 'io.platform.keymanager.uploadOtherDomainCertificate',
    input: { from: 'envelope', schema: schemas.uploadCertificate },
    operation: operation(ops.UploadOtherDomainCertificateDocument),
    variables: (input) => input,
    response: uploaded,
    result: (data) => data.uploadOtherDomainCertificate,
    codeFor: kmsCode,
    internalErrorCode: 'KER-KMS-500',
  }),
  cryptoRoute('encrypt', 'Encrypt a string for an application key (VER_R2, base64url)', ops.EncryptDocument, (data) => data.encrypt),
  cryptoRoute('decrypt', 'Decrypt what encrypt produced', ops.DecryptDocument, (data) => data.decrypt),
  defineRoute({
    method: 'post',
    path: '/v1/signature/sign',
    summary: 'Sign a string: a JWS (RS256) with the signing certificate',
    id: 'io.platform.signature.sign',
    input: { from: 'envelope', schema: schemas.sign },
    operation: operation(ops.SignDocument),
    variables: (input) => input,
    response: z.object({ signature: z.string(), timestamp: z.string() }),
    result: (data) => data.sign,
    codeFor: () => 'KER-CSS-999',
    internalErrorCode: 'KER-CSS-102',
    signResponse: true,
  }),
  defineRoute({
    method: 'post',
    path: '/v1/signature/validate',
    summary: 'Validate a JWS made by sign',
    id: 'io.platform.signature.validate',
    input: { from: 'envelope', schema: schemas.validateSignature.extend({ timestamp: z.string().nullish() }) },
    operation: operation(ops.ValidateSignatureDocument),
    variables: ({ signature, data }) => ({ signature, data }),
    response: z.object({ status: z.string(), message: z.string() }),
    result: (data) => data.validateSignature,
    codeFor: () => 'KER-CSS-999',
    internalErrorCode: 'KER-CSS-102',
    signResponse: true,
  }),
  defineRoute({
    method: 'get',
    path: '/v1/syncdata/publickey/{applicationId}',
    summary: 'The public key of an application (or machine/partner reference) in force at timeStamp',
    id: 'platform.kernel.syncdata.publickey',
    input: { from: 'query', schema: schemas.syncPublicKey.omit({ applicationId: true }) },
    operation: operation(ops.SyncPublicKeyDocument),
    variables: (input, req) => ({ applicationId: pathParam(req, 'applicationId'), referenceId: input.referenceId, timeStamp: input.timeStamp }),
    response: z.object({ publicKey: z.string(), issuedAt: z.string(), expiryAt: z.string(), profile: z.string() }),
    result: (data) => data.syncPublicKey,
    codeFor: (field, missing) => codeFor(field, missing, 'syncPublicKey'),
    internalErrorCode: 'KER-KMS-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/syncdata/tpm/publickey',
    summary: "Map a registration client machine's public key",
    id: 'platform.kernel.sync.publickeytomachine',
    input: { from: 'envelope', schema: schemas.uploadMachinePublicKey },
    operation: operation(ops.UploadMachinePublicKeyDocument),
    variables: (input) => input,
    response: z.object({ keyIndex: z.string() }),
    result: (data) => data.uploadMachinePublicKey,
    codeFor: machineCode,
    internalErrorCode: 'KER-CRY-500',
  }),
  defineRoute({
    method: 'post',
    path: '/v1/syncdata/tpm/publickey/verify',
    summary: 'Verify that a public key is the one mapped to the machine',
    id: 'platform.kernel.sync.publickeytomachine.verify',
    input: { from: 'envelope', schema: schemas.uploadMachinePublicKey },
    operation: operation(ops.VerifyMachinePublicKeyDocument),
    variables: (input) => input,
    response: z.object({ machineName: z.string(), keyIndex: z.string(), verified: z.boolean() }),
    result: (data) => ({ ...data.verifyMachinePublicKey, verified: present(data.verifyMachinePublicKey.verified, 'verified') }),
    codeFor: machineCode,
    internalErrorCode: 'KER-CRY-500',
  }),
];
