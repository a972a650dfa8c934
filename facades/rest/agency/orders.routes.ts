import { z } from 'zod';
import { parseInput, text } from '../../shared/input';
import { uuidParam } from '../customer/mappers';
import { route } from '../route';
import { order, ORDER_FIELDS, type OrderData } from './mappers';

/**
 * NFC orders (spec: NFC order). Transitions answer 200 `{data: NFC order}` with the order after the move
 * (the spec shows no body); an impossible move is 409 (see docs/decisions.md for the state machine).
 */
export const orderRoutes = [
  route<{ nfcOrders: OrderData[] }>({
    method: 'get',
    path: '/orders',
    document: `query { nfcOrders { ${ORDER_FIELDS} } }`,
    variables: () => ({}),
    respond: (d) => ({ body: { data: d.nfcOrders.map(order) } }),
  }),
  route<{ shipNfcOrder: OrderData }>({
    method: 'put',
    path: '/orders/:order/ship',
    document: `mutation ($id: String!, $trackingUrl: String) { shipNfcOrder(id: $id, trackingUrl: $trackingUrl) { ${ORDER_FIELDS} } }`,
    variables: (req) => {
      const id = uuidParam(req.params.order, 'Order');
      const b = parseInput(z.object({ tracking_url: text('tracking_url').nullish() }), req.body);
      return { id, trackingUrl: b.tracking_url || null };
    },
    respond: (d) => ({ body: { data: order(d.shipNfcOrder) } }),
  }),
  route<{ completeNfcOrder: OrderData }>({
    method: 'put',
    path: '/orders/:order/complete',
    document: `mutation ($id: String!) { completeNfcOrder(id: $id) { ${ORDER_FIELDS} } }`,
    variables: (req) => ({ id: uuidParam(req.params.order, 'Order') }),
    respond: (d) => ({ body: { data: order(d.completeNfcOrder) } }),
  }),
  route<{ cancelNfcOrder: OrderData }>({
    method: 'put',
    path: '/orders/:order/cancel',
    document: `mutation ($id: String!) { cancelNfcOrder(id: $id) { ${ORDER_FIELDS} } }`,
    variables: (req) => ({ id: uuidParam(req.params.order, 'Order') }),
    respond: (d) => ({ body: { data: order(d.cancelNfcOrder) } }),
  }),
];
