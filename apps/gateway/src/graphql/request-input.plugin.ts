// GraphQL's share of the request rules every transport applies (request-body.ts and core's
// input-text rule): an unreadable body is a 4xx before yoga parses it, and text with a NUL or a
// lone surrogate, in variables or in the document's string literals, is a 400 before any resolver.
import { Kind, visit, type ASTNode, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { findMalformedText, invalidField, textProblemOf, type FieldError } from '@outreach/core';
import { decodeFetchBody, RequestProblemError } from '../request-body';
import { graphqlError, graphqlRequestErrorResponse } from '../errors/error-map';

/** The first string literal of the document that breaks the text rule, named by its argument path. */
function malformedLiteral(document: DocumentNode): FieldError | null {
  let found: FieldError | null = null;
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      const problem = found ? null : textProblemOf(node.value);
      if (!problem) return;
      // `ancestors` stops before the parent (the Argument or ObjectField holding the literal).
      const names = [...ancestors, parent].flatMap((a) => {
        const n = a as ASTNode;
        if (n?.kind === Kind.ARGUMENT || n?.kind === Kind.OBJECT_FIELD) return [n.name.value];
        return n?.kind === Kind.VARIABLE_DEFINITION ? [n.variable.name.value] : [];
      });
      found = { field: names.join('.') || '(document)', message: problem };
    },
  });
  return found;
}

export function useRequestInputRules(): Plugin {
  return {
    // Runs for every request, before yoga reads the body; must not throw.
    async onRequest({ request, setRequest, endResponse, fetchAPI }) {
      try {
        const body = await decodeFetchBody(request);
        if (body === null) return;
        const headers = new fetchAPI.Headers(request.headers);
        headers.delete('content-encoding');
        headers.set('content-length', String(body.byteLength));
        setRequest(new fetchAPI.Request(request.url, { method: request.method, headers, body: new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), signal: request.signal }));
      } catch (error) {
        const problem = error instanceof RequestProblemError ? error.problem : { status: 400 as const, code: 'request.malformed', message: 'request body could not be read' };
        const answer = graphqlRequestErrorResponse(problem);
        endResponse(new fetchAPI.Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json; charset=utf-8' } }));
      }
    },
    onExecute({ args, setResultAndStopExecution }) {
      const malformed = findMalformedText(args.variableValues ?? {}) ?? malformedLiteral(args.document);
      if (malformed) setResultAndStopExecution({ errors: [graphqlError(invalidField(malformed.field, malformed.message), { withHttpStatus: true })] });
    },
  };
}
