// A brand id for tests of the scoped query builder itself, which read stores with made-up brands and
// have no brands row to resolve: the one place outside tenancy that makes a BrandId from text
// (test/architecture/scoped-query.test.ts lists it). Tests of the service use their tenant's
// brandId, read from its rows.
import type { BrandId } from '../../src/stores/scoped-query.ts';

export const testBrandId = (id: string): BrandId => id as BrandId;
