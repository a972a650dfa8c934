/** GraphQL selections of the agency area and their REST shapes (spec: Customer, Custom plan, NFC order). */

export const CUSTOMER_FIELDS = `id name email phone language trialEndsAt createdAt updatedAt
  customPlan { id name } organizations { id name }`;

export interface CustomerData {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  language: string;
  trialEndsAt: string | null;
  createdAt: string;
  updatedAt: string;
  customPlan: { id: number; name: string } | null;
  organizations: Array<{ id: number; name: string }>;
}

export const customer = (c: CustomerData) => ({
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  language: c.language,
  trial_ends_at: c.trialEndsAt,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
  custom_plan: c.customPlan ? { id: c.customPlan.id, name: c.customPlan.name } : null,
  organizations: c.organizations.map((o) => ({ id: o.id, name: o.name })),
});

export const CUSTOM_PLAN_FIELDS = 'id billingMonthlyId billingYearlyId name isDefault isHidden isFree createdAt updatedAt';

export interface CustomPlanData {
  id: number;
  billingMonthlyId: string;
  billingYearlyId: string;
  name: string;
  isDefault: boolean;
  isHidden: boolean;
  isFree: boolean;
  createdAt: string;
  updatedAt: string;
}

export const customPlan = (p: CustomPlanData) => ({
  id: p.id,
  billing_monthly_id: p.billingMonthlyId,
  billing_yearly_id: p.billingYearlyId,
  name: p.name,
  is_default: p.isDefault,
  is_hidden: p.isHidden,
  is_free: p.isFree,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

export const ORDER_FIELDS = `id orderNumber email total currency status
  shipping { name address city country trackingUrl }
  items { productName quantity unitPrice nfcUrls }`;

export interface OrderData {
  id: string;
  orderNumber: string;
  email: string;
  total: number;
  currency: string;
  status: string;
  shipping: { name: string; address: string; city: string; country: string; trackingUrl: string | null };
  items: Array<{ productName: string; quantity: number; unitPrice: number; nfcUrls: string[] }>;
}

export const order = (o: OrderData) => ({
  id: o.id,
  order_number: o.orderNumber,
  email: o.email,
  total: o.total,
  currency: o.currency,
  status: o.status,
  shipping: {
    name: o.shipping.name,
    address: o.shipping.address,
    city: o.shipping.city,
    country: o.shipping.country,
    tracking_url: o.shipping.trackingUrl,
  },
  items: o.items.map((i) => ({ product_name: i.productName, quantity: i.quantity, unit_price: i.unitPrice, nfc_urls: i.nfcUrls })),
});
