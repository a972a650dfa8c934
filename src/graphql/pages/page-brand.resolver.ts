import { FieldResolver, Resolver, Root } from 'type-graphql';
import { shownLogoUrl } from '../../reports/logo';
import { PageBrandType } from './page-brand.type';

/**
 * The logo of every public page's brand (feedback, unsubscribe, connect and its refused callback): the one place the
 * pages' brands pass through, so no page shows an `<img>` that `/brand/logo/<key>` would answer 404 (a broken image
 * whose alt text sits beside the brand's name). The same cached fetch the route answers from (src/reports/logo.ts).
 */
@Resolver(() => PageBrandType)
export class PageBrandResolver {
  @FieldResolver(() => String, { nullable: true })
  logoUrl(@Root() brand: PageBrandType): Promise<string | null> {
    return shownLogoUrl(brand.logoUrl);
  }
}
