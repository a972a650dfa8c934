import { text } from '../../shared/input';
import { order, Order, ORDER_FIELDS, type OrderData } from '../../shared/presenters/agency';
import { dataOf, listOf } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import { pathUuid, route } from '../route';

/**
 * NFC orders (spec: NFC order). Transitions answer 200 `{data: NFC order}` with the order after the move
 * (the spec shows no body); an impossible move is 409 (see docs/decisions/agency-api.md, "NFC orders", for the state machine).
 */
const TAG = 'NFC orders';
const orderId = { order: pathUuid('Order', 'The order id.') };

const transition = (name: 'complete' | 'cancel', field: 'completeNfcOrder' | 'cancelNfcOrder', summary: string) =>
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
    document: `mutation ($id: String!) { ${field}(id: $id) { ${ORDER_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.order }),
    respond: (d: Record<string, OrderData>) => ({ body: { data: order(d[field]) } }),
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
    document: `query { nfcOrders { ${ORDER_FIELDS} } }`,
    variables: () => ({}),
    respond: (d: { nfcOrders: OrderData[] }) => ({ body: { data: d.nfcOrders.map(order) } }),
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
    document: `mutation ($id: String!, $trackingUrl: String) { shipNfcOrder(id: $id, trackingUrl: $trackingUrl) { ${ORDER_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.order, trackingUrl: body.tracking_url || null }),
    respond: (d: { shipNfcOrder: OrderData }) => ({ body: { data: order(d.shipNfcOrder) } }),
  }),
  transition('complete', 'completeNfcOrder', 'Mark an NFC order complete'),
  transition('cancel', 'cancelNfcOrder', 'Cancel an NFC order'),
];
