import { Field, ObjectType } from 'type-graphql';

/** What a page's brand says about its logo: the one rule of `PageBrand.logoUrl` and `ScanReportBrand.logoUrl`. */
export const SHOWN_LOGO_DESCRIPTION =
  "The agency's logo URL when the platform can fetch its image (the page shows it from the platform's own `/brand/logo/<key>`); null when the agency has none or the platform cannot have it (refused, unreachable, not an image): the page then shows the brand's name alone.";

@ObjectType('PageBrand', { description: "The agency's brand (white label) a public page wears, and the language the page speaks." })
export class PageBrandType {
  @Field()
  name!: string;

  /** The agency's stored logo URL; the field answers `shownLogoUrl` of it (PageBrandResolver). */
  @Field(() => String, { nullable: true, description: SHOWN_LOGO_DESCRIPTION })
  logoUrl!: string | null;

  @Field({ description: 'ISO 639-1: the account\'s language, else the agency\'s.' })
  language!: string;
}
