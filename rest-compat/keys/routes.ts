import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { z } from 'zod';
import { parseArguments } from '../../lib/graph/inputs.js';
import { identifier } from '../../lib/input.js';
import { keys } from '../../subgraphs/keys/index.js';
import { cryptoPrerequisites, keysInputs, keyTime, subjectFields } from '../../subgraphs/keys/inputs.js';
import * as ops from '../../generated/graphql/keys.operations.js';
import type { PayloadResults } from '../operations.js';
import type { RecordFragment } from '../../generated/graphql/keys.operations.js';
import { instantFromWire, pathParam, present, timestamp, type RestRoute } from '../route.js';
import { routeFactory } from '../route-factory.js';

const { schemas } = keysInputs;
/** MOSIP's key manager, crypto manager and signature service: one component here, each service with its own ids, paths and internal code. */
const service = (idPrefix: string, pathPrefix: string, internalErrorCode: string) => routeFactory({ component: keys, idPrefix, pathPrefix, internalErrorCode });
const keymanager = service('io.platform.keymanager.', '/v1/keymanager', 'KER-KMS-500');
const cryptomanager = service('io.platform.cryptomanager.', '/v1/cryptomanager', 'KER-CRY-500');
const signature = service('io.platform.signature.', '/v1/signature', 'KER-CSS-102');
/** The machine key paths registration clients reach under sync data's. */
const syncKeys = service('platform.kernel.', '/v1/syncdata', 'KER-CRY-500');
const text = identifier();

const record = z.object({ certSignRequest: z.string().nullable(), certificate: z.string(), issuedAt: z.string(), expiryAt: z.string(), timestamp: z.string() });
const uploaded = z.object({ status: z.string(), timestamp: z.string() });
/** The graph's DateTimes as the wire writes them. */
const recordOf = (record: RecordFragment) => ({
  ...record,
  issuedAt: timestamp(record.issuedAt),
  expiryAt: timestamp(record.expiryAt),
  timestamp: timestamp(record.timestamp),
});
const stamped = <T extends { timestamp: Date | string }>(answer: T) => ({ ...answer, timestamp: timestamp(answer.timestamp) });

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

/**
 * The graph takes timeStamp as a DateTime: wire text the crypto manager refuses is refused here with its code
 * (after the empty applicationId or data it reports first); an empty one means now, as when absent.
 */
const cryptoVariables = (input: Crypto) => {
  const { applicationId, referenceId, data, aad, salt, timeStamp } = input;
  return { applicationId, referenceId, data, aad, salt, timeStamp: timeStamp ? instantFromWire(timeStamp, keyTime, () => cryptoPrerequisites(input)) : null };
};

/** encrypt and decrypt: one request shape, one answer shape, one set of codes. */
const cryptoRoute = <Data>(
  name: 'encrypt' | 'decrypt',
  summary: string,
  document: TypedDocumentNode<Data, ReturnType<typeof cryptoVariables>>,
  result: (data: PayloadResults<Data>) => { data: string },
) =>
  cryptomanager({
    method: 'post',
    path: `/${name}`,
    summary,
    idSuffix: name,
    input: { from: 'envelope', schema: crypto },
    operation: document,
    variables: cryptoVariables,
    response: z.object({ data: z.string() }),
    result,
  });

export const keysRoutes: RestRoute[] = [
  keymanager({
    method: 'post',
    path: '/generateCSR',
    summary: 'Generate a CSR for the key in force of an application (or reference)',
    idSuffix: 'generateCSR',
    input: { from: 'envelope', schema: csrRequest },
    operation: ops.GenerateCsrDocument,
    variables: (input) => ({ applicationId: input.applicationId, referenceId: input.referenceId, subject: subjectOf(input) }),
    response: record,
    result: (data) => recordOf(data.generateCsr),
  }),
  keymanager({
    method: 'post',
    path: '/generateMasterKey/{objectType}',
    summary: 'Generate (force: rotate) a master or reference key; objectType Certificate or CSR',
    idSuffix: 'generateMasterKey',
    input: { from: 'envelope', schema: csrRequest.extend({ force: z.boolean() }) },
    operation: ops.GenerateMasterKeyDocument,
    variables: (input, req) => ({
      objectType: pathParam(req, 'objectType'),
      applicationId: input.applicationId,
      referenceId: input.referenceId,
      force: input.force,
      subject: subjectOf(input),
    }),
    response: record,
    result: (data) => recordOf(data.generateMasterKey),
  }),
  keymanager({
    method: 'get',
    path: '/getCertificate',
    summary: 'The certificate of the key in force',
    idSuffix: 'getCertificate',
    input: { from: 'query', schema: schemas.certificate },
    operation: ops.GetCertificateDocument,
    response: record,
    result: (data) => recordOf(data.certificate),
  }),
  keymanager({
    method: 'post',
    path: '/uploadCertificate',
    summary: 'Replace a generated certificate by a CA-signed one for the same key',
    idSuffix: 'uploadCertificate',
    input: { from: 'envelope', schema: schemas.uploadCertificate },
    operation: ops.UploadCertificateDocument,
    response: uploaded,
    result: (data) => stamped(data.uploadCertificate),
  }),
  keymanager({
    method: 'post',
    path: '/uploadOtherDomainCertificate',
    summary: "Store another domain's certificate (e.g. the ABIS partner's) to encrypt towards it",
    idSuffix: 'uploadOtherDomainCertificate',
    input: { from: 'envelope', schema: schemas.uploadCertificate },
    operation: ops.UploadOtherDomainCertificateDocument,
    response: uploaded,
    result: (data) => stamped(data.uploadOtherDomainCertificate),
  }),
  cryptoRoute('encrypt', 'Encrypt a string for an application key (VER_R2, base64url)', ops.EncryptDocument, (data) => data.encrypt),
  cryptoRoute('decrypt', 'Decrypt what encrypt produced', ops.DecryptDocument, (data) => data.decrypt),
  signature({
    method: 'post',
    path: '/sign',
    summary: 'Sign a string: a JWS (RS256) with the signing certificate',
    idSuffix: 'sign',
    input: { from: 'envelope', schema: schemas.sign },
    operation: ops.SignDocument,
    response: z.object({ signature: z.string(), timestamp: z.string() }),
    result: (data) => stamped(data.sign),
    signResponse: true,
  }),
  signature({
    method: 'post',
    path: '/validate',
    summary: 'Validate a JWS made by sign',
    idSuffix: 'validate',
    input: { from: 'envelope', schema: schemas.validateSignature.extend({ timestamp: z.string().nullish() }) },
    operation: ops.ValidateSignatureDocument,
    variables: ({ signature, data }) => ({ signature, data }),
    response: z.object({ status: z.string(), message: z.string() }),
    signResponse: true,
  }),
  syncKeys({
    method: 'get',
    path: '/publickey/{applicationId}',
    summary: 'The public key of an application (or machine/partner reference) in force at timeStamp',
    idSuffix: 'syncdata.publickey',
    input: { from: 'query', schema: schemas.syncPublicKey.omit({ applicationId: true }) },
    operation: ops.SyncPublicKeyDocument,
    variables: (input, req) => {
      // The wire's timeStamp as the key manager checks it; refused, the path's application id is checked first, as the graph would.
      const args = { applicationId: pathParam(req, 'applicationId'), referenceId: input.referenceId };
      return {
        ...args,
        timeStamp: instantFromWire(input.timeStamp, keyTime, () => parseArguments(keysInputs, 'syncPublicKey', { ...args, timeStamp: input.timeStamp })),
      };
    },
    response: z.object({ publicKey: z.string(), issuedAt: z.string(), expiryAt: z.string(), profile: z.string() }),
    result: ({ syncPublicKey: key }) => ({ ...key, issuedAt: timestamp(key.issuedAt), expiryAt: timestamp(key.expiryAt) }),
    // the key manager answers it, under sync data's path
    internalErrorCode: 'KER-KMS-500',
  }),
  syncKeys({
    method: 'post',
    path: '/tpm/publickey',
    summary: "Map a registration client machine's public key",
    idSuffix: 'sync.publickeytomachine',
    input: { from: 'envelope', schema: schemas.uploadMachinePublicKey },
    operation: ops.UploadMachinePublicKeyDocument,
    response: z.object({ keyIndex: z.string() }),
  }),
  syncKeys({
    method: 'post',
    path: '/tpm/publickey/verify',
    summary: 'Verify that a public key is the one mapped to the machine',
    idSuffix: 'sync.publickeytomachine.verify',
    input: { from: 'envelope', schema: schemas.uploadMachinePublicKey },
    operation: ops.VerifyMachinePublicKeyDocument,
    response: z.object({ machineName: z.string(), keyIndex: z.string(), verified: z.boolean() }),
    result: (data) => ({ ...data.verifyMachinePublicKey, verified: present(data.verifyMachinePublicKey.verified, 'verified') }),
  }),
];
