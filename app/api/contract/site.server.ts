import { z } from 'zod';
import { contactSchema } from '~/services/contact.server';
import { json, operation, type ApiOperation } from './operation.server';
import { Message, Policies } from './shapes.server';

/** Site: public: contact, policies, the API's own document. */
export const siteOperations = {
  contact: operation({
    method: 'POST',
    path: '/api/contact',
    file: 'api.contact.ts',
    summary: 'Send a message to the site',
    tag: 'Site',
    audience: 'anyone',
    limited: true,
    body: contactSchema,
    responses: { 200: json('Sent', Message) },
  }),
  policies: operation({
    method: 'GET',
    path: '/api/policies',
    file: 'api.policies.ts',
    summary: 'The five policy texts',
    tag: 'Site',
    audience: 'anyone',
    responses: {
      200: json('One item holding every text (sanitized HTML)', z.array(Policies).length(1)),
    },
  }),
  openapi: operation({
    method: 'GET',
    path: '/api/openapi.json',
    file: 'api.openapi[.json].ts',
    summary: 'This document',
    tag: 'Site',
    audience: 'anyone',
    responses: { 200: json('OpenAPI 3.1', z.looseObject({ openapi: z.literal('3.1.0') })) },
  }),
  docs: operation({
    method: 'GET',
    path: '/api/docs',
    file: 'api.docs.ts',
    summary: 'This document, to read',
    tag: 'Site',
    audience: 'anyone',
    responses: {
      200: { description: 'An HTML page', schema: z.string(), contentType: 'text/html' },
    },
  }),
} as const satisfies Record<string, ApiOperation>;
