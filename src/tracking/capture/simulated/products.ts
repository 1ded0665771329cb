// What the simulated engine knows about a few product categories (hiking boots, backpacks,
// espresso beans), so that answers to prompts about them read like answers about those products:
// reasons a reviewer would give (waterproofing, fit, weight, roast, origin...), model names, the
// review, retail and forum sites such answers cite. Prompts about anything else keep the generic
// vocabulary of text.ts. All of it is made up for the simulation: model names, claims
// and pages do not exist; the demo labels its data set as simulated (SIMULATED_LABEL).
//
// Reasons are verb phrases in the third person ("keeps feet dry ..."), so one reason fits a list
// item ("**Trailpeak Ridge Mid**: Keeps feet dry ...") and prose ("The Trailpeak Ridge Mid keeps
// feet dry ..."). Praise and faults carry words the built-in sentiment reads (docs/analysis.md,
// "Sentiment"), so an entity's sentiment follows the tone the engine chose for it.

/** A cited page: {t} topic title, {ts} topic slug, {y} year, {id} a random id, {sub} a forum. */
export interface SourcePage {
  url: string;
  title: string;
}

export interface ProductKind {
  id: string;
  /** Matched against the prompt, lower-cased. */
  match: RegExp;
  /** "hiking boots": what the answer calls the products. */
  noun: string;
  /** Model lines, written after the maker's name ("Trailpeak Ridge Mid GTX"). */
  lines: readonly string[];
  /** Model lines of the untracked makers. */
  otherLines: readonly string[];
  /** What the shopping card adds after the model ("Waterproof Hiking Boot, Men's"). */
  cardSuffix: readonly string[];
  praise: readonly string[];
  faults: readonly string[];
  /** Neither praise nor fault: a description. */
  plain: readonly string[];
  /** Makers nobody tracks, named beside the tracked ones as real answers do. */
  others: readonly string[];
  /** A comparison's verdict: what may matter most (for the first), what one may want (the second). */
  verdict: readonly [readonly string[], readonly string[]];
  /** "What to look for" bullets. */
  advice: readonly string[];
  /** Third-party pages by category of docs/api.md section 2 (the analysis classifies the host). */
  pages: Readonly<
    Record<'editorial' | 'forum' | 'social' | 'review' | 'institutional' | 'other', readonly SourcePage[]>
  >;
  /** Pages on a tracked maker's own site: {line} is a model slug. */
  ownPages: readonly SourcePage[];
  /** Shopping: typical price in US dollars, and shops per region beside the marketplaces. */
  price: number;
  shops: Readonly<Record<string, readonly string[]>>;
}

const OUTDOOR_SHOPS = {
  US: ['amazon.com', 'amazon.com', 'rei.com', 'backcountry.com', 'zappos.com', 'moosejaw.com'],
  GB: ['amazon.co.uk', 'amazon.co.uk', 'cotswoldoutdoor.com', 'blacks.co.uk', 'ellis-brigham.com'],
  FR: ['amazon.fr', 'decathlon.fr', 'auvieuxcampeur.fr'],
};
const OUTDOOR_FORUMS: readonly SourcePage[] = [
  {
    url: 'https://www.reddit.com/r/{sub}/comments/{id}/{tu}_recommendations/',
    title: '{T} recommendations? : r/{sub}',
  },
  { url: 'https://www.reddit.com/r/{sub}/comments/{id}/anyone_tried_{es}/', title: 'Anyone tried {E}? : r/{sub}' },
  { url: 'https://www.quora.com/What-are-the-best-{tq}', title: 'What are the best {t}? - Quora' },
  { url: 'https://www.backpackinglight.com/forums/topic/{id}/', title: '{E} long-term report - Backpacking Light' },
];
const OUTDOOR_SOCIAL: readonly SourcePage[] = [
  { url: 'https://www.youtube.com/watch?v={yt}', title: '{E} after 500 miles: honest review' },
  { url: 'https://www.youtube.com/watch?v={yt}', title: 'Best {T} {y}: we tested 12' },
  { url: 'https://www.instagram.com/p/{yt}/', title: '{E} on the trail' },
];

const BOOTS: ProductKind = {
  id: 'hiking-boots',
  match: /\b(boots?|hiking shoes?|footwear)\b/,
  noun: 'hiking boots',
  lines: ['Ridge Mid GTX', 'Crestline WP', 'Switchback Mid', 'Talus Lite', 'Alpine Trek', 'Basecamp Wide'],
  cardSuffix: ["Waterproof Hiking Boot, Men's", "Waterproof Hiking Boot, Women's", 'Mid Hiking Boot, Wide Fit'],
  praise: [
    'keeps feet dry through stream crossings thanks to a waterproof membrane that reviewers rate as reliable',
    'is the most comfortable boot here straight out of the box, with almost no break-in period',
    'has a roomy toe box and a true wide fit, which makes it a great choice for wide feet',
    'is impressively light for a waterproof mid, so long days feel easier',
    'has excellent grip on wet rock and a durable rubber outsole that lasts for years',
    'offers great value: a well-made leather upper at a mid-range price',
    'gives solid ankle support on rocky descents without feeling stiff',
  ],
  faults: [
    'runs narrow and some reviewers report blisters during the first weeks',
    'is heavy compared with newer designs, and the leather takes a long time to break in',
    'is expensive for what you get, and several owners report the waterproofing failing after a season',
    'has had complaints about the sole separating, so durability is hit or miss',
    'feels stiff and uncomfortable on long road sections, and it runs hot in summer',
    'is disappointing in wet conditions: the seams leak once the membrane wears out',
  ],
  plain: [
    'comes in regular and wide sizes and uses a leather and mesh upper',
    'is a mid-height boot with a waterproof lining and a lugged outsole',
    'sits between a trail shoe and a full backpacking boot',
  ],
  others: ['Cairnworks', 'Alder & Pine', 'Granite Fox', 'Kettle Creek'],
  verdict: [
    ['comfort', 'waterproofing', 'weight'],
    ['a stiffer sole for rough ground', 'a wide fit', 'a lower price'],
  ],
  otherLines: ['Summit Pro', 'Trekker II', 'Scree Mid', 'Canyon Low'],
  advice: [
    '- **Fit first:** try boots on in the afternoon, with the socks you hike in; a thumb-width of room at the ' +
      'toe is about right.',
    '- **Waterproofing:** a membrane keeps water out but breathes less; in hot, dry climates a non-waterproof ' +
      'boot is often more comfortable.',
    '- **Weight:** every gram on your feet counts several times over on a long day.',
    '- **Break-in:** leather boots need a few short walks before a long trip; synthetic ones are ready sooner.',
    '- **Wide feet:** look for models sold in a real wide (2E) width rather than sizing up.',
  ],
  pages: {
    editorial: [
      { url: 'https://www.nytimes.com/wirecutter/reviews/best-{ts}/', title: 'The Best {T} | Reviews by Wirecutter' },
      { url: 'https://www.theguardian.com/lifeandstyle/{y}/{m}/best-{ts}-tested', title: 'The best {t}, tested' },
      { url: 'https://www.cnn.com/cnn-underscored/reviews/best-{ts}', title: 'Best {t} in {y}, tested by editors' },
    ],
    forum: OUTDOOR_FORUMS,
    social: OUTDOOR_SOCIAL,
    review: [
      {
        url: 'https://www.consumerreports.org/outdoors/{ts}/buying-guide/',
        title: '{T} Buying Guide - Consumer Reports',
      },
      { url: 'https://www.trustpilot.com/review/{ed}', title: '{E} Reviews | Read Customer Service Reviews' },
    ],
    institutional: [
      { url: 'https://en.wikipedia.org/wiki/Hiking_boot', title: 'Hiking boot - Wikipedia' },
      { url: 'https://www.nps.gov/articles/hiking-safety.htm', title: 'Hiking Safety (U.S. National Park Service)' },
    ],
    other: [
      { url: 'https://www.outdoorgearlab.com/topics/shoes-and-boots/best-{ts}', title: 'The {n} Best {T} of {y}' },
      { url: 'https://www.switchbacktravel.com/best-{ts}', title: 'Best {T} of {y} | Switchback Travel' },
      {
        url: 'https://www.rei.com/learn/expert-advice/hiking-boots.html',
        title: 'How to Choose Hiking Boots | REI Expert Advice',
      },
      { url: 'https://www.cleverhiker.com/{ts}/', title: '{n} Best {T} ({y} Guide)' },
      { url: 'https://www.backpacker.com/gear/footwear/{es}-review/', title: 'Review: {E} - Backpacker' },
    ],
  },
  ownPages: [
    { url: '/products/{line}', title: '{E} {L} | {E}' },
    { url: '/collections/hiking-boots', title: "Hiking Boots | Men's & Women's | {E}" },
    { url: '/pages/boot-fit-guide', title: 'Boot Fit Guide: Finding Your Size | {E}' },
    { url: '/blog/how-to-waterproof-leather-boots', title: 'How to Re-Waterproof Leather Boots | {E} Journal' },
  ],
  price: 189,
  shops: OUTDOOR_SHOPS,
};

const PACKS: ProductKind = {
  id: 'backpacks',
  match: /\b(backpacks?|packs?|rucksacks?|daypacks?)\b/,
  noun: 'backpacks',
  lines: ['Skyline 40', 'Ultra 38', 'Thru 55', 'Traverse 48', 'Ridgeback 30', 'Longtrail 50'],
  cardSuffix: ['Ultralight Backpacking Pack', 'Hiking Backpack with Rain Cover', 'Frameless Thru-Hiking Pack'],
  praise: [
    'weighs under two pounds yet carries 30 lb comfortably, which is impressive for a framed pack',
    'has a well-made, durable fabric that thru-hikers say lasts for years',
    'is the most comfortable hip belt of the group, with pockets you can reach while walking',
    'offers great value: most of the features of premium packs at a lower price',
    'has a simple, versatile layout with a big front mesh pocket that is easy to use',
  ],
  faults: [
    'is pricey, and the thin fabric shows wear quickly on rocky trails',
    'has a hip belt that some reviewers find uncomfortable above 25 lb',
    'feels cluttered with straps and is heavier than it needs to be',
    'has had complaints about seams tearing, so quality control seems hit or miss',
    'lacks a proper frame, so it falls short on heavy food carries',
  ],
  plain: [
    'is a roll-top pack with a removable frame sheet and side bottle pockets',
    'comes in three torso lengths and two hip-belt sizes',
    'is made of a laminated ripstop fabric with taped seams',
  ],
  others: ['Cairnworks', 'Featherline', 'Oakhollow Gear', 'Windrift'],
  verdict: [
    ['weight', 'comfort under load', 'value'],
    ['a tougher fabric', 'more pockets', 'a lower price'],
  ],
  otherLines: ['Arc 45', 'Flight 30', 'Circuit 62', 'Lite 40'],
  advice: [
    '- **Base weight:** an ultralight pack only makes sense if the rest of your kit is light; most frameless ' +
      'packs top out around 25 lb.',
    '- **Torso length:** measure it; a pack in the wrong size rides badly whatever its hip belt.',
    '- **Volume:** 40-55 litres suits most thru-hikes with resupplies every 4-6 days.',
    '- **Fabric:** laminated fabrics shed water but cost more; nylon is cheaper and tougher.',
  ],
  pages: {
    editorial: [
      { url: 'https://www.nytimes.com/wirecutter/reviews/best-{ts}/', title: 'The Best {T} | Reviews by Wirecutter' },
      { url: 'https://www.theguardian.com/lifeandstyle/{y}/{m}/best-{ts}-tested', title: 'The best {t}, tested' },
    ],
    forum: OUTDOOR_FORUMS,
    social: OUTDOOR_SOCIAL,
    review: [
      {
        url: 'https://www.consumerreports.org/outdoors/backpacks/buying-guide/',
        title: 'Backpack Buying Guide - Consumer Reports',
      },
      { url: 'https://www.trustpilot.com/review/{ed}', title: '{E} Reviews | Read Customer Service Reviews' },
    ],
    institutional: [
      { url: 'https://en.wikipedia.org/wiki/Ultralight_backpacking', title: 'Ultralight backpacking - Wikipedia' },
      {
        url: 'https://www.nps.gov/subjects/camping/backpacking.htm',
        title: 'Backpacking (U.S. National Park Service)',
      },
    ],
    other: [
      { url: 'https://www.outdoorgearlab.com/topics/camping-and-hiking/best-{ts}', title: 'The {n} Best {T} of {y}' },
      { url: 'https://www.switchbacktravel.com/best-{ts}', title: 'Best {T} of {y} | Switchback Travel' },
      {
        url: 'https://www.rei.com/learn/expert-advice/backpacks-adjusting-fit.html',
        title: 'Backpacks: How to Choose and Fit | REI Expert Advice',
      },
      { url: 'https://www.cleverhiker.com/{ts}/', title: '{n} Best {T} ({y} Guide)' },
      { url: 'https://www.sectionhiker.com/{es}-review/', title: '{E} Review - SectionHiker' },
    ],
  },
  ownPages: [
    { url: '/products/{line}', title: '{E} {L} | {E}' },
    { url: '/collections/backpacks', title: 'Backpacks | {E}' },
    { url: '/pages/torso-sizing', title: 'How to Measure Your Torso | {E}' },
  ],
  price: 229,
  shops: OUTDOOR_SHOPS,
};

const ESPRESSO: ProductKind = {
  id: 'espresso-beans',
  match: /\b(espresso|coffee|beans?|roast(s|ers?)?)\b/,
  noun: 'espresso beans',
  lines: ['Classico', 'Crema Blend', 'Ethiopia Yirgacheffe', 'Brazil Cerrado', 'Decaf Nuit', 'Single Origin Huila'],
  cardSuffix: ['Whole Bean Espresso, 1 kg', 'Whole Bean Coffee, 500 g', 'Medium-Dark Roast Espresso Beans, 1 kg'],
  praise: [
    'pulls a rich, chocolatey shot with thick crema, and it is forgiving on entry-level machines',
    'is roasted to order and ships within days, so the beans arrive fresh',
    'offers great value for a specialty roast, especially in the 1 kg bag',
    'is a medium roast with bright, fruity notes that works well for both espresso and milk drinks',
    'is consistent from bag to bag, which makes dialing in easy for beginners',
    'uses traceable single-origin lots, and tasters describe it as smooth and balanced',
  ],
  faults: [
    'is roasted very dark, and several reviewers find it bitter and oily enough to clog grinders',
    'is expensive for the quantity, and freshness is hit or miss when bought from marketplaces',
    'tastes flat in milk drinks, and some buyers complain about stale bags',
    'is inconsistent between batches, so you may have to re-dial your grinder with every bag',
    'can be sour on home machines that cannot hold a stable temperature',
  ],
  plain: [
    'is a blend of Brazilian and Colombian beans roasted medium-dark',
    'is sold whole bean in 250 g, 500 g and 1 kg bags',
    'lists the roast date on every bag',
  ],
  others: ['Moka Lane', 'Tostadora Sol', 'Kettle & Crema', 'Hillside Roastery'],
  verdict: [
    ['a chocolatey, classic shot', 'freshness', 'value'],
    ['fruitier single origins', 'a darker roast for milk drinks', 'a lower price'],
  ],
  otherLines: ['House Espresso', 'Dark Roast No. 5', 'Sumatra Mandheling', 'Morning Blend'],
  advice: [
    '- **Roast date:** buy beans roasted within the last two to four weeks; espresso tastes best a week or so ' +
      'after roasting.',
    '- **Roast level:** medium to medium-dark roasts are easier to extract on home machines than light roasts.',
    '- **Grinder:** a capable burr grinder matters more than the beans; pre-ground coffee goes stale within days.',
    '- **Origin:** Brazilian and Colombian beans give chocolate and nut notes; Ethiopian beans are brighter ' +
      'and fruitier.',
  ],
  pages: {
    editorial: [
      {
        url: 'https://www.nytimes.com/wirecutter/reviews/best-coffee-beans/',
        title: 'The Best Coffee Beans | Reviews by Wirecutter',
      },
      {
        url: 'https://www.theguardian.com/food/{y}/{m}/best-espresso-beans-taste-test',
        title: 'The best espresso beans: taste test',
      },
      {
        url: 'https://www.lemonde.fr/guides-d-achat/article/{y}/{m}/cafe-en-grains-pour-expresso_{id}.html',
        title: 'Les meilleurs cafés en grains pour expresso',
      },
    ],
    forum: [
      {
        url: 'https://www.reddit.com/r/{sub}/comments/{id}/espresso_beans_for_a_home_machine/',
        title: 'Espresso beans for a home machine? : r/{sub}',
      },
      { url: 'https://www.reddit.com/r/{sub}/comments/{id}/anyone_tried_{es}/', title: 'Anyone tried {E}? : r/{sub}' },
      {
        url: 'https://www.quora.com/What-are-the-best-espresso-beans',
        title: 'What are the best espresso beans? - Quora',
      },
    ],
    social: [
      { url: 'https://www.youtube.com/watch?v={yt}', title: 'I tried {n} espresso blends so you do not have to' },
      { url: 'https://www.youtube.com/watch?v={yt}', title: '{E} review: dialing in at home' },
      { url: 'https://www.instagram.com/p/{yt}/', title: 'Morning shot with {E}' },
    ],
    review: [
      { url: 'https://www.trustpilot.com/review/{ed}', title: '{E} Reviews | Read Customer Service Reviews' },
      { url: 'https://www.yelp.com/biz/{es}-paris', title: '{E} - Paris - Yelp' },
    ],
    institutional: [
      { url: 'https://en.wikipedia.org/wiki/Espresso', title: 'Espresso - Wikipedia' },
      { url: 'https://en.wikipedia.org/wiki/Coffee_roasting', title: 'Coffee roasting - Wikipedia' },
    ],
    other: [
      { url: 'https://www.coffeereview.com/review/{es}-{line}/', title: '{E} {L} | Coffee Review' },
      {
        url: 'https://www.home-barista.com/espresso-machines/{es}-beans-t{id}.html',
        title: 'Beans for a single-boiler machine - Home-Barista.com',
      },
      {
        url: 'https://perfectdailygrind.com/{y}/{m}/choosing-espresso-beans/',
        title: 'How to Choose Beans for Espresso - Perfect Daily Grind',
      },
      {
        url: 'https://www.seriouseats.com/best-espresso-beans-{id}',
        title: 'The Best Espresso Beans, Tested and Reviewed',
      },
    ],
  },
  ownPages: [
    { url: '/shop/{line}', title: '{L} | {E}' },
    { url: '/collections/espresso', title: 'Espresso Coffees | {E}' },
    { url: '/blog/dialing-in-espresso-at-home', title: 'Dialing In Espresso at Home | {E}' },
    { url: '/pages/our-sourcing', title: 'Where Our Beans Come From | {E}' },
  ],
  price: 24,
  shops: {
    US: ['amazon.com', 'amazon.com', 'target.com', 'walmart.com'],
    GB: ['amazon.co.uk', 'amazon.co.uk', 'waitrose.com', 'ocado.com'],
    FR: ['amazon.fr', 'amazon.fr', 'carrefour.fr', 'cdiscount.com'],
  },
};

/** Subreddits per kind, for the forum pages' {sub}. */
export const SUBREDDITS: Readonly<Record<string, readonly string[]>> = {
  'hiking-boots': ['hiking', 'WildernessBackpacking', 'BuyItForLife', 'CampingGear'],
  backpacks: ['Ultralight', 'WildernessBackpacking', 'AppalachianTrail', 'PacificCrestTrail'],
  'espresso-beans': ['espresso', 'Coffee', 'pourover', 'BuyItForLife'],
};

// Boots before packs: "hiking boots for a backpacking trip" is about boots.
const KINDS: readonly ProductKind[] = [BOOTS, PACKS, ESPRESSO];

/** The product kind a prompt is about, or null for the generic vocabulary. */
export function productKindOf(prompt: string): ProductKind | null {
  const p = prompt.toLowerCase();
  return KINDS.find((k) => k.match.test(p)) ?? null;
}
