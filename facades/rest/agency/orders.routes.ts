import { text } from '../../shared/input';
import { order, Order } from '../../shared/presenters/agency';
import { dataOf, listOf } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import type { Operation } from '../../shared/execute';
import { pathUuid, route } from '../route';
import { graphql } from '../../shared/graphql';
import type { OrderFieldsFragment } from '../../shared/graphql/graphql';

/**
 * NFC orders (spec: NFC order). Transitions answer 200 `{data: NFC order}` with the order after the move
 * (the spec shows no body); an impossible move is 409 (see docs/decisions/agency-api.md, "NFC orders", for the state machine).
 */
const TAG = 'NFC orders';
const orderId = { order: pathUuid('Order', 'The order id.') };

const transition = <F extends 'completeNfcOrder' | 'cancelNfcOrder'>(name: 'complete' | 'cancel', field: F, document: Operation<Record<F, OrderFieldsFragment>>, summary: string) =>
  route({
    method: 'put',
    path: `/orders/:order/${name}`,
    operationId: field,
    summary,
    tag: TAG,
    permissions: null,
    params: orderId,
    errors: [409],
    responses: { 200: { description: 'The order after the move.', schema: dataOf(Order) } },
    document,
    variables: ({ params }) => ({ id: params.order }),
    respond: (d) => ({ body: { data: order(d[field]) } }),
  });

export const orderRoutes = [
  route({
    method: 'get',
    path: '/orders',
    operationId: 'listNfcOrders',
    summary: 'List NFC orders',
    tag: TAG,
    permissions: null,
    responses: { 200: { description: 'Every NFC order of the agency.', schema: listOf(Order) } },
    document: graphql(`query ListNfcOrders { nfcOrders { ...OrderFields } }`),
    variables: () => ({}),
    respond: (d) => ({ body: { data: d.nfcOrders.map(order) } }),
  }),
  route({
    method: 'put',
    path: '/orders/:order/ship',
    operationId: 'shipNfcOrder',
    summary: 'Mark an NFC order shipped',
    tag: TAG,
    permissions: null,
    params: orderId,
    body: z.object({ tracking_url: text('tracking_url').nullish().openapi({ format: 'uri' }) }),
    errors: [409],
    responses: { 200: { description: 'The order after the move.', schema: dataOf(Order) } },
    document: graphql(`mutation ShipNfcOrder($id: String!, $trackingUrl: String) { shipNfcOrder(id: $id, trackingUrl: $trackingUrl) { ...OrderFields } }`),
    variables: ({ params, body }) => ({ id: params.order, trackingUrl: body.tracking_url || null }),
    respond: (d) => ({ body: { data: order(d.shipNfcOrder) } }),
  }),
  transition(
    'complete',
    'completeNfcOrder',
    graphql(`mutation CompleteNfcOrder($id: String!) { completeNfcOrder(id: $id) { ...OrderFields } }`),
    'Mark an NFC order complete',
  ),
  transition(
    'cancel',
    'cancelNfcOrder',
    graphql(`mutation CancelNfcOrder($id: String!) { cancelNfcOrder(id: $id) { ...OrderFields } }`),
    'Cancel an NFC order',
  ),
];
