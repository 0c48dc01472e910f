import type { ApolloServer } from '@apollo/server';
import {
  getOperationAST,
  GraphQLError,
  Kind,
  OperationTypeNode,
  print,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
} from 'graphql';
import type { CredentialHeaders, RequestContext } from '../lib/context.js';
import type { LiveChanges, LiveSubscription } from '../lib/live.js';

/** Changes closer together than this are answered once: a packet's stages write several rows in a moment. */
const SETTLE_MS = 150;

/** What one subscription's answers need of the platform. */
export interface LiveQueryDeps {
  graphql: ApolloServer<RequestContext>;
  changes: LiveChanges;
  contextFor: (headers: CredentialHeaders, clientAddress: string) => RequestContext;
}

/** What the subscription was accepted with, handed from graphql-ws's onSubscribe to its subscribe. */
export interface LiveContext {
  credentials: CredentialHeaders;
  clientAddress: string;
  declared: LiveSubscription;
  field: FieldNode;
}

/** The subscription as the query of the same name: the same selection, arguments and fragments. */
function asQuery(document: DocumentNode, operationName: string | null | undefined): DocumentNode {
  const operation = getOperationAST(document, operationName);
  return {
    ...document,
    definitions: document.definitions.map((definition) => (definition === operation ? { ...operation, operation: OperationTypeNode.QUERY } : definition)),
  };
}

/** The value of the subscription's key argument (a RID), whether written inline or passed as a variable. */
function keyOf(field: FieldNode, name: string | undefined, variables: Readonly<Record<string, unknown>>): string | undefined {
  if (!name) return undefined;
  const value = field.arguments?.find((argument) => argument.name.value === name)?.value;
  if (value?.kind === Kind.VARIABLE) return String(variables[value.name.value]);
  return value?.kind === Kind.STRING ? value.value : undefined;
}

/** The caller refused (a token expired, revoked or unknown, a role gone): the subscription ends with that answer. */
const endsIt = (code: unknown) => typeof code === 'string' && code.startsWith('KER-ATH-');

/**
 * One subscription's answers, as graphql-ws iterates them. An answer is
 * computed when the consumer asks for the next one and something changed
 * since the last (changes in between are answered once); an answer equal
 * to the last is not sent again. A refusal of the caller ends it.
 */
export class LiveQuery implements AsyncIterableIterator<ExecutionResult> {
  private dirty = true;
  private ended = false;
  private wake: (() => void) | undefined;
  private settle: NodeJS.Timeout | undefined;
  private readonly refresh: NodeJS.Timeout | undefined;
  private readonly stops: (() => void)[];
  private last: string | undefined;
  private readonly query: string;
  private readonly context: LiveContext;

  constructor(
    private readonly args: ExecutionArgs,
    private readonly options: LiveQueryDeps,
  ) {
    this.context = args.contextValue as LiveContext;
    this.query = print(asQuery(args.document, args.operationName));
    const key = keyOf(this.context.field, this.context.declared.keyArgument, args.variableValues ?? {});
    this.stops = this.context.declared.topics.map((topic) =>
      options.changes.on(topic, (changed) => {
        if (key === undefined || changed === null || changed === key) this.changed();
      }),
    );
    const every = this.context.declared.refreshSeconds;
    if (every) {
      this.refresh = setInterval(() => this.poke(), every * 1000);
      this.refresh.unref();
    }
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ExecutionResult>> {
    for (;;) {
      if (this.ended) return { done: true, value: undefined };
      if (!this.dirty) await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.ended) return { done: true, value: undefined };
      this.dirty = false;
      const result = await this.answer();
      const text = JSON.stringify(result);
      const refused = result.errors?.some((error) => endsIt(error.extensions?.code));
      if (refused) this.stop();
      if (text !== this.last || refused) {
        this.last = text;
        return { done: false, value: result };
      }
    }
  }

  return(): Promise<IteratorResult<ExecutionResult>> {
    this.stop();
    return Promise.resolve({ done: true, value: undefined });
  }

  private async answer(): Promise<ExecutionResult> {
    const contextValue = this.options.contextFor(this.context.credentials, this.context.clientAddress);
    const response = await this.options.graphql.executeOperation(
      { query: this.query, variables: this.args.variableValues ?? {}, operationName: this.args.operationName ?? undefined },
      { contextValue },
    );
    if (response.body.kind !== 'single') return { errors: [new GraphQLError('incremental answers are not served', { extensions: { code: 'BAD_REQUEST' } })] };
    const { data, errors } = response.body.singleResult;
    // Apollo answers formatted errors; graphql-ws sends GraphQLErrors (their toJSON): the same message, path and code.
    const raised = errors?.map((error) => new GraphQLError(error.message, { path: error.path, extensions: error.extensions }));
    return { ...(data !== undefined ? { data } : {}), ...(raised ? { errors: raised } : {}) };
  }

  private changed(): void {
    this.settle ??= setTimeout(() => {
      this.settle = undefined;
      this.poke();
    }, SETTLE_MS);
  }

  private poke(): void {
    this.dirty = true;
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private stop(): void {
    if (this.ended) return;
    this.ended = true;
    for (const stop of this.stops) stop();
    clearInterval(this.refresh);
    clearTimeout(this.settle);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
