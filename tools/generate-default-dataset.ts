/**
 * Writes datasets/default/sentiment.jsonl, the embedded sentiment data set,
 * from a seeded template grammar. The data is generated rather than copied
 * so the project owns it outright (same licence as the code) and anyone can
 * reproduce the committed file byte for byte.
 *
 *   npm run build && node dist/tools/generate-default-dataset.js [--seed N] [--count N] [--out FILE] [--check]
 *
 * `--check` regenerates in memory and exits 1 when the committed file differs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRandom, randomIndex, type RandomSource } from '../datasets/seeded-random.js';
import { embeddedDatasetPath } from '../datasets/open-dataset.js';
import { percentileOfSorted } from '../src/core/statistics.js';

/** Seed of the committed file; changing it changes every row. */
export const DEFAULT_SEED = 20_240_611;
/** Rows in the committed file: enough for several batches at batch size 256, small enough to commit. */
export const DEFAULT_COUNT = 3000;
/** Longest text kept, in words, like the longest single reviews in common sentiment corpora. */
const MAX_WORDS = 72;
/** Share of short social-media posts among the rows. */
const TWEET_SHARE = 0.3;

/** One row of the embedded set; `source` tells which register the text imitates. */
export interface GeneratedRow {
  readonly text: string;
  readonly label: 0 | 1;
  readonly source: 'review' | 'tweet';
}

type Polarity = 0 | 1;
const L = (s: string): string[] => s.split('|');

interface AspectGroup {
  readonly aspects: string[];
  readonly pos: string[];
  readonly neg: string[];
  readonly posVp: string[];
  readonly negVp: string[];
}
interface Domain {
  readonly tense: 'past' | 'present';
  /** Preposition joining an aspect to an item in tweets: "the ramen at Blue Lantern", "the zipper on this jacket". */
  readonly prep: string;
  readonly items: string[];
  readonly groups: AspectGroup[];
  readonly posVp: string[];
  readonly negVp: string[];
  readonly openers: string[];
  readonly posClose: string[];
  readonly negClose: string[];
  readonly rivals: string[];
  readonly audiences: string[];
  readonly nouns: string[];
  readonly tags: string[];
  readonly handles: string[];
}
type Spec = { [K in keyof Domain]: K extends 'tense' | 'prep' ? Domain[K] : K extends 'groups' ? string[][] : string };

/** Vocabulary is written as `a|b|c`; `*` marks a plural subject; `[sg/pl]` picks the verb form agreeing with the subject. */
function domain(spec: Spec): Domain {
  const out: Record<string, unknown> = { tense: spec.tense, prep: spec.prep };
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'tense' || key === 'prep') continue;
    if (key === 'groups') {
      out[key] = (value as string[][]).map(([aspects = '', pos = '', neg = '', posVp = '', negVp = '']) => ({
        aspects: L(aspects), pos: L(pos), neg: L(neg), posVp: posVp ? L(posVp) : [], negVp: negVp ? L(negVp) : [],
      }));
    } else out[key] = L(value as string);
  }
  return out as unknown as Domain;
}

const PRODUCT_POS_CLOSE = 'Would buy again.|Highly recommend.|Best purchase I have made this year.|Five stars.|Worth every cent.|Already ordered a second one.';
const PRODUCT_NEG_CLOSE = 'Returning it.|Do not buy this.|Save your money.|Requested a refund today.|One star.|Back in the box it goes.';
const FRIENDS = '@jess_reads|@mike_eats|@tomtravels|@sam_k|@priya_codes|@dan_the_man|@lauren_b|@kofi_a';

const DOMAINS: Domain[] = [
  domain({ // movies and shows
    tense: 'past', prep: 'in',
    items: 'this movie|the film|this sequel|the new season|this documentary|the show|this series|this remake|the pilot episode|this thriller|this comedy|this animated film',
    groups: [
      ['the plot|the story|the script|the ending|the twist|the dialogue|the pacing|the first half|the finale|the screenplay', 'gripping|clever|tight|original|surprising|well written|heartfelt|smart', 'predictable|confusing|paper thin|cliched|painfully slow|messy|ridiculous|lazy', 'kept me guessing until the very end|pulled me in right away|tied everything together beautifully', 'made no sense at all|went nowhere|dragged on forever|fell apart in the last act|had more holes than a sponge'],
      ['the acting|the cast|the lead actress|the lead actor|the villain|the supporting cast|the child actors*|the performances*', 'convincing|superb|magnetic|believable|charming|unforgettable', 'wooden|stiff|unconvincing|over the top|flat|annoying', 'carried the whole film|stole every scene|brought the characters to life', '[was/were] phoned in|had zero chemistry|could not deliver a single line convincingly'],
      ['the soundtrack|the cinematography|the visuals*|the special effects*|the score|the editing|the fight scenes*|the camera work|the costumes*', 'stunning|gorgeous|breathtaking|beautifully done|haunting|slick', 'cheap|distracting|choppy|ugly|dated|headache inducing', 'gave me chills|set the mood perfectly|[was/were] a work of art', 'felt cheap and rushed|[was/were] painfully amateurish|pulled me right out of the story'],
    ],
    posVp: 'kept me hooked from start to finish|made me laugh out loud|had me in tears by the end|stayed with me for days|exceeded all my expectations|blew me away|[is/are] worth every minute',
    negVp: 'put me to sleep|wasted a great cast|felt twice as long as it was|had me checking my watch|insulted my intelligence|[was/were] a total waste of time',
    openers: 'I watched this on a long flight.|We saw it on opening night.|My friends had been talking about it for weeks.|I went in knowing nothing about it.|I rented it on a rainy Sunday.|I have read the book twice.|We streamed it over the weekend.|I caught a late showing after work.|My sister picked it for movie night.',
    posClose: 'I would happily watch it again.|Go see it on the big screen.|Easily one of the best films of the year.|Ten out of ten.|Already planning a second viewing.|Worth every penny of the ticket.',
    negClose: 'Save your money and wait for streaming.|Two hours of my life I will never get back.|I walked out halfway through.|Skip this one.|I want a refund.|Do not waste your evening on it.',
    rivals: 'the original|the first movie|the book|the trailer|the previous season|most superhero movies',
    audiences: 'anyone who loves a good thriller|families with kids|fans of the books|anyone who needs a good cry|fans of the genre',
    nouns: 'movie|film|story|ride|show',
    tags: '#movienight|#cinema|#filmtwitter|#nospoilers|#streaming|#bingewatch',
    handles: '@CineplexNow|@ReelTalkDaily|@FlickPickHQ',
  }),
  domain({ // restaurants
    tense: 'past', prep: 'at',
    items: 'this place|the restaurant|this little bistro|the new taco spot|this diner|the sushi bar|this pizzeria|the cafe|this steakhouse|the food truck|Casa Verde|The Copper Pot|Blue Lantern',
    groups: [
      ['the food|the pasta|the burger|the fries*|the tacos*|the ramen|the dessert|the coffee|the sushi|the bread|the soup|the steak|the pizza crust|the cocktails*|the wings*|the curry', 'delicious|fresh|perfectly cooked|flavorful|mouthwatering|tasty|crispy|tender', 'cold|bland|overcooked|greasy|stale|soggy|salty|dry|undercooked|inedible', 'melted in my mouth|tasted like it came straight from Italy|[was/were] the best I have ever had', 'tasted like cardboard|came out lukewarm|gave my husband food poisoning|[was/were] swimming in oil'],
      ['the service|our waiter|the staff*|the host|the manager|our server|the bartender', 'friendly|attentive|welcoming|helpful|quick|professional', 'rude|slow|dismissive|clueless|unprofessional|inattentive', 'made us feel right at home|checked on us just enough|went above and beyond', 'ignored us for twenty minutes|rolled [his eyes/their eyes] at our questions|forgot half our order'],
      ['the atmosphere|the decor|the patio|the music|the dining room|the portions*|the prices*|the wait', 'cozy|lively|charming|relaxing|generous|reasonable|beautiful', 'loud|cramped|dirty|depressing|tiny|outrageous|ridiculous', '[was/were] perfect for a first date', '[was/were] way too long'],
    ],
    posVp: 'never disappoints|made our anniversary special|nailed every single dish|[is/are] my new favorite spot|deserves every one of its five stars',
    negVp: 'made me sick|ruined our night|got our order wrong twice|kept us waiting for an hour|charged us for drinks we never ordered',
    openers: 'We came here for a birthday dinner.|I stopped by for lunch on a Tuesday.|We had a reservation for eight.|A coworker recommended this place.|We ordered takeout on a Friday night.|It was our first visit.|We sat on the patio.|We were a party of six.',
    posClose: 'Will definitely be back.|Cannot wait to come back.|Best meal I have had all year.|Five stars.|Get the tasting menu.|We are already planning our next visit.',
    negClose: 'Never again.|We will not be returning.|Save yourself the trouble.|One star is generous.|Eat somewhere else.|Avoid.',
    rivals: 'the place across the street|any chain restaurant|my grandmother\'s cooking|the old location|every other sushi place in town',
    audiences: 'anyone who loves spicy food|families|couples looking for a date night spot|anyone who wants a quick lunch|large groups',
    nouns: 'meal|place|dinner|spot|brunch',
    tags: '#foodie|#brunch|#eeeeeats|#dinnertime|#foodreview|#yum',
    handles: '@CopperPotEats|@BlueLanternNYC|@CasaVerdeKitchen',
  }),
  domain({ // hotels
    tense: 'past', prep: 'at',
    items: 'this hotel|the resort|this motel|the inn|this bed and breakfast|the Harbor Inn|the Grand Meridian|this hostel|the lodge',
    groups: [
      ['the room|the bed|the bathroom|the shower|the view|the sheets*|the pillows*|the balcony|the air conditioning', 'spotless|spacious|comfortable|clean|quiet|modern|cozy', 'filthy|tiny|noisy|musty|stained|broken|outdated|freezing', 'had everything we needed|felt like a little apartment', 'smelled like smoke|had not been cleaned|[was/were] falling apart'],
      ['the staff*|the front desk|the receptionist|the concierge|the housekeeping team|the manager', 'welcoming|helpful|friendly|professional|accommodating', 'rude|unhelpful|dismissive|slow|clueless', 'went out of their way to help us|remembered our names|upgraded us for free', 'lost our reservation|ignored our complaints|charged us twice'],
      ['the pool|the breakfast buffet|the gym|the wifi|the spa|the parking|the location|the lobby|the rooftop bar', 'excellent|fantastic|convenient|relaxing|lovely|perfect', 'useless|overpriced|crowded|unreliable|sad|a joke', 'made the whole trip', '[was/were] nothing like the website promised'],
    ],
    posVp: 'felt like a home away from home|made our honeymoon perfect|exceeded every expectation|[is/are] worth every penny',
    negVp: 'looked nothing like the photos|ruined our vacation|[was/were] a total rip off|gave us bed bugs',
    openers: 'We stayed here for three nights.|I booked this for a work conference.|We arrived late after a long drive.|It was our honeymoon.|We stayed two nights over a long weekend.|I travel for work a lot.|We booked it last minute.',
    posClose: 'We will definitely stay here again.|Book it, you will not regret it.|Best hotel stay I have had in years.|Already booked our next trip.|Five stars.',
    negClose: 'Stay anywhere else.|We checked out a day early.|Never staying here again.|Not worth half the price.|Avoid at all costs.',
    rivals: 'the photos online|the last place we stayed|a youth hostel|other hotels in the area',
    audiences: 'families|business travelers|couples|anyone visiting the old town|anyone on a budget',
    nouns: 'stay|hotel|place|trip|weekend',
    tags: '#travel|#vacation|#hotelreview|#wanderlust|#roadtrip',
    handles: '@HarborInnStays|@GrandMeridian|@StayScoutHQ',
  }),
  domain({ // apps
    tense: 'present', prep: 'on',
    items: 'this app|the app|TaskNest|Budgetly|NoteLoop|FitPulse|this game|the new update|this calendar app|the banking app|this photo editor|the music app',
    groups: [
      ['the latest update|the new version|sync|the login screen|search|the checkout page|offline mode|the notifications*', 'fast|reliable|smooth|rock solid|seamless|snappy', 'buggy|broken|painfully slow|useless|glitchy|unreliable', '[works/work] flawlessly|never [crashes/crash]|[loads/load] instantly', '[keeps/keep] crashing|[drains/drain] my battery|[freezes/freeze] constantly'],
      ['the interface|the design|the dark mode|the layout|the onboarding|the home screen|the widgets*|the settings menu', 'clean|intuitive|beautiful|simple|polished|easy to use', 'cluttered|confusing|ugly|clunky|hard to navigate', '[makes/make] everything easy to find|[looks/look] great on my phone', '[hides/hide] every useful feature|[changes/change] every week for no reason'],
      ['the subscription|the free version|the pricing|the premium plan|the family plan', 'worth it|fair|generous|reasonable', 'a rip off|predatory|overpriced|a scam', '[pays/pay] for itself', '[costs/cost] more every month'],
      ['customer support|the help center|the support team', 'responsive|helpful|quick|friendly', 'useless|nonexistent|slow|clueless', '[answers/answer] within minutes', 'never [replies/reply] to emails'],
    ],
    posVp: '[has/have] completely changed how I plan my week|[does/do] exactly what it promises|[is/are] worth every cent|[keeps/keep] getting better|[saves/save] me hours every week',
    negVp: '[crashes/crash] every time I open it|deleted all my notes|[is/are] a battery hog|[asks/ask] for way too many permissions|[charges/charge] me twice a month',
    openers: 'I have used this app daily for a year.|I downloaded it after a friend recommended it.|I switched from another app last month.|I use it mostly on my tablet.|I tried the free trial first.|I am on the latest version.',
    posClose: 'Five stars, well deserved.|Worth the download.|Highly recommended.|Keep up the great work, devs.|Best app on my phone.',
    negClose: 'Uninstalled.|Deleting it today.|Give us the old version back.|One star until this is fixed.|Cancelled my subscription.',
    rivals: 'the old version|every other to-do app I have tried|the web version|the competition',
    audiences: 'students|anyone who travels|small business owners|busy parents',
    nouns: 'app|update|tool',
    tags: '#app|#update|#tech|#productivity|#android|#iphone',
    handles: '@TaskNestApp|@BudgetlyHelp|@NoteLoopTeam|@FitPulseSupport',
  }),
  domain({ // electronics
    tense: 'present', prep: 'on',
    items: 'these headphones*|this phone|the laptop|this speaker|the smartwatch|these earbuds*|the tablet|this charger|the keyboard|this camera',
    groups: [
      ['the battery life|the sound quality|the screen|the camera|the charging|the bluetooth connection|the microphone|the speakers*', 'excellent|crisp|amazing|incredible|sharp|rock solid', 'awful|terrible|tinny|dim|weak|spotty', '[blows/blow] my old one away|[is/are] better than I expected', '[is/are] worse than on my old one|[gets/get] worse every week'],
      ['the build quality|the design|the buttons*|the case|the hinge|the finish', 'sturdy|premium|sleek|solid|well made', 'flimsy|cheap|plasticky|fragile|wobbly', '[feels/feel] like it will last for years', 'broke after a week|[scratches/scratch] if you look at it'],
      ['the price|the setup|customer service|the warranty|the instructions*|the packaging', 'fair|painless|helpful|clear|quick', 'a joke|a nightmare|useless|confusing', '', ''],
    ],
    posVp: '[does/do] everything I need|[is/are] worth every penny|exceeded my expectations|[works/work] perfectly out of the box',
    negVp: 'stopped working after two weeks|arrived broken|[is/are] a complete waste of money|[overheats/overheat] constantly',
    openers: 'I bought this to replace my old one.|I have had it for about three months now.|I got it on sale last month.|It was a birthday gift from my wife.|I use it every day for work.',
    posClose: PRODUCT_POS_CLOSE, negClose: PRODUCT_NEG_CLOSE,
    rivals: 'my old one|the previous model|cheaper brands|the one I had before',
    audiences: 'commuters|gamers|students|anyone working from home',
    nouns: 'purchase|device|product|gadget',
    tags: '#tech|#gadgets|#unboxing|#review|#wfh',
    handles: '@VoltGearSupport|@SoniqAudio|@PixelonHelp',
  }),
  domain({ // home and kitchen
    tense: 'present', prep: 'on',
    items: 'this blender|the vacuum|this air fryer|the kettle|this coffee maker|the toaster|this rice cooker|the stand mixer|this microwave|the dishwasher',
    groups: [
      ['the motor|the heating|the timer|the temperature control|the power button', 'reliable|consistent|precise|fantastic|impressive', 'weak|inconsistent|useless|unreliable|erratic', '', ''],
      ['the lid|the handle|the design|the cord|the buttons*|the filter', 'sturdy|sleek|solid|comfortable|well designed', 'flimsy|cheap|wobbly|awkward|loose', '', '[falls/fall] off constantly'],
      ['cleanup|the setup|assembly|the manual|the price|customer service', 'a breeze|easy|quick|simple|fair', 'a nightmare|a pain|confusing|ridiculous|useless', '', ''],
    ],
    posVp: '[makes/make] my mornings so much easier|[works/work] like a charm|[is/are] worth every penny|[looks/look] great on our counter|[does/do] the job perfectly|[is/are] so easy to clean',
    negVp: 'stopped working after a month|[smells/smell] like burning plastic|broke the second time I used it|[is/are] louder than a jet engine|[trips/trip] the breaker every time',
    openers: 'We bought this after our old one died.|I have been using it for a few weeks.|It replaced a much cheaper model.|I ordered it online during a sale.|My roommate and I share it.',
    posClose: PRODUCT_POS_CLOSE, negClose: PRODUCT_NEG_CLOSE,
    rivals: 'our old one|the cheap model we had before|the one my parents have|anything else in this price range',
    audiences: 'anyone with a small kitchen|busy families|anyone living alone|anyone setting up a first apartment',
    nouns: 'purchase|appliance|product|buy',
    tags: '#homeimprovement|#kitchen|#homedecor|#amazonfinds',
    handles: '@KitchenCoHelp|@HomeHavenCare',
  }),
  domain({ // clothing
    tense: 'present', prep: 'on',
    items: 'this jacket|these jeans*|this hoodie|this dress|the rain coat|this sweater|these leggings*|the t-shirt',
    groups: [
      ['the fit|the sizing|the length|the sleeves*|the waist', 'perfect|true to size|spot on|flattering', 'way off|too tight|awkward|baggy|all wrong', '', ''],
      ['the fabric|the material|the stitching|the zipper|the color|the pockets*|the lining', 'soft|durable|sturdy|gorgeous|breathable', 'scratchy|thin|cheap|flimsy|faded', '[holds/hold] up really well', '[is/are] already falling apart'],
    ],
    posVp: '[fits/fit] like a glove|[keeps/keep] me warm and dry|[goes/go] with everything|still [looks/look] new after months of wear',
    negVp: 'fell apart after one wash|[itches/itch] like crazy|shrank in the dryer|[looks/look] nothing like the photos',
    openers: 'I ordered my usual size.|I wear it to work twice a week.|I bought it for a hiking trip.|I have washed it about ten times now.|It arrived two days early.',
    posClose: PRODUCT_POS_CLOSE, negClose: PRODUCT_NEG_CLOSE,
    rivals: 'my old one|the pricier brands|what I usually buy|the store version',
    audiences: 'commuters|anyone between sizes|hikers|anyone who hates ironing',
    nouns: 'purchase|buy|find',
    tags: '#ootd|#style|#fashion|#haul',
    handles: '@ThreadlineCo|@NorthPeakWear',
  }),
];

const POS_ADJ = L('great|excellent|fantastic|amazing|wonderful|outstanding|superb|brilliant|terrific|impressive|lovely|phenomenal|incredible|solid|top notch|first rate');
const NEG_ADJ = L('terrible|awful|horrible|disappointing|mediocre|dreadful|poor|underwhelming|lousy|subpar|pathetic|atrocious|abysmal|frustrating|a huge letdown');
const INTENS = L('really|very|truly|absolutely|incredibly|genuinely|seriously|remarkably|extremely|so|super|pretty|insanely|unbelievably');
const FEEL = {
  past: [L('loved|really enjoyed|adored|was impressed by|was blown away by|fell in love with'), L('hated|could not stand|was disappointed by|was let down by|was annoyed by')],
  present: [L('love|really like|adore|am obsessed with|am impressed by|cannot get enough of'), L('hate|cannot stand|am disappointed with|am so done with|am fed up with')],
};
const NOT_GOOD = L('good|great|worth it|very good|impressive|anything special|as good as I hoped|worth the money');
const NOT_BAD = L('bad at all|disappointing in the slightest|a problem at all|a letdown at all');
const OVERALL = [
  L('overall it was a waste of money|I just cannot recommend it|it was not worth it in the end|I regret it|overall it was a letdown'),
  L('overall it was worth it|overall I loved it|I would still recommend it|it was still a great experience|I would still give it five stars'),
];
const PREFIX = [L('Honestly,|Sadly,|Unfortunately,|To be honest,|Overall,|Sigh,'), L('Honestly,|Thankfully,|To be honest,|Overall,|Surprisingly,|Wow,')];
const SLANG = [L('[is/are] mid|[is/are] trash|[sucks/suck]|[is/are] a flop|[is/are] a scam|[is/are] straight garbage|[is/are] so bad lol|[is/are] just not it|[is/are] a mess'), L('[slaps/slap]|[is/are] fire|[hits/hit] different|[is/are] a vibe|[is/are] elite|[is/are] so good|[is/are] goated|[is/are] underrated|[is/are] top tier')];
const TWEET_OPEN = [L('ugh|smh|welp|bruh|ngl|tbh|honestly|not gonna lie|yall'), L('ngl|lowkey|highkey|tbh|honestly|fr|ok but|omg|yall')];
const TWEET_SHOUT = [L('never again|0/10|worst decision ever|what a waste|so disappointed|hard pass|absolute joke|do better|i want my money back'), L('obsessed|10/10 would recommend|best decision ever|instant favorite|chefs kiss|love love love|cannot stop talking about it|so worth it')];
const TWEET_END = [L('fix it please|smh|not happy|every single time|why is this so hard|i give up'), L('you guys rock|thank you!!|made my day|so happy rn|never change')];

/** Grammar state: the PRNG and the helpers every template draws with. */
class Gen {
  constructor(readonly random: RandomSource) {}
  pick<T>(items: readonly T[]): T {
    return items[randomIndex(this.random, items.length)] as T;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
}

/** Resolves `[sg/pl]` and drops the `*` plural mark. */
function agree(text: string, plural: boolean): string {
  return text.replace(/\[([^/\]]*)\/([^\]]*)\]/g, (_m, sg: string, pl: string) => (plural ? pl : sg)).replace(/\*/g, '');
}
const isPlural = (subject: string): boolean => subject.endsWith('*');
const be = (d: Domain): string => (d.tense === 'past' ? '[was/were]' : '[is/are]');
const beNot = (d: Domain): string => (d.tense === 'past' ? '[was not/were not]' : '[is not/are not]');
const flip = (p: Polarity): Polarity => (p === 1 ? 0 : 1);
const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const wordCount = (s: string): number => s.split(/\s+/).filter(Boolean).length;

function adjective(g: Gen, own: readonly string[], p: Polarity): string {
  const adj = own.length > 0 && g.chance(0.6) ? g.pick(own) : g.pick(p === 1 ? POS_ADJ : NEG_ADJ);
  return !adj.includes(' ') && g.chance(0.35) ? `${g.pick(INTENS)} ${adj}` : adj;
}

/** One clause of polarity `p` about an item or an aspect of it, lower-case, without final punctuation. */
function clause(g: Gen, d: Domain, p: Polarity, aside = false): string {
  const group = g.pick(d.groups);
  const groupVps = p === 1 ? group.posVp : group.negVp;
  // An aside (the clause a "but" or "although" overrides) is about one aspect, never the verdict on the whole item.
  const r = aside ? g.random() * 0.86 : g.random();
  // Item-level verb phrases only fit items, so a verb-phrase clause about an aspect needs a group that has some.
  const onItem = aside ? false : g.chance(0.3) || (r >= 0.34 && r < 0.54 && groupVps.length === 0);
  if (aside && r >= 0.34 && r < 0.54 && groupVps.length === 0) return clause(g, d, p, aside);
  const subject = onItem ? g.pick(d.items) : g.pick(group.aspects);
  const vps = onItem ? (p === 1 ? d.posVp : d.negVp) : groupVps;
  const feel = FEEL[d.tense][p === 1 ? 0 : 1] as string[];
  let text: string;
  if (r < 0.34) text = `${subject} ${be(d)} ${adjective(g, onItem ? [] : p === 1 ? group.pos : group.neg, p)}`;
  else if (r < 0.54) text = `${subject} ${g.pick(vps)}`;
  else if (r < 0.66) text = `I ${g.pick(feel)} ${subject.replace('*', '')}`;
  else if (r < 0.86) {
    const item = subject.replace('*', '');
    const forms =
      p === 1
        ? [`${subject} ${beNot(d)} ${g.pick(NOT_BAD)}`, `I have no complaints about ${item}`, `I cannot say enough good things about ${item}`, `there is nothing I would change about ${item}`, `${subject} never [disappoints/disappoint]`]
        : [`${subject} ${beNot(d)} ${g.pick(NOT_GOOD)}`, `${subject} did not live up to the hype`, `nothing about ${item} worked for me`, `I ${d.tense === 'past' ? 'did not enjoy' : 'do not like'} ${item} at all`, `I cannot believe how bad ${subject} ${be(d)}`];
    text = g.pick(forms);
  } else if (r < 0.93) {
    const item = g.pick(d.items);
    const rival = g.pick(d.rivals);
    text = g.pick(p === 1
      ? [`${item} ${be(d)} ${g.pick(L('way|far|much|so much'))} better than ${rival}`, `${item} ${be(d)} even better than ${rival}`]
      : [`${item} ${be(d)} ${g.pick(L('way|far|much'))} worse than ${rival}`, `${item} ${beNot(d)} nearly as good as ${rival}`]);
    return agree(text, isPlural(item));
  } else {
    const item = g.pick(d.items).replace('*', '');
    text = p === 1
      ? `I would ${g.pick(L('definitely|highly|absolutely'))} recommend ${item} to ${g.pick(d.audiences)}`
      : `I would not recommend ${item} to ${g.pick([...L('anyone|my worst enemy|anybody'), g.pick(d.audiences)])}`;
  }
  return agree(text, isPlural(subject));
}

function finish(g: Gen, body: string): string {
  const r = g.random();
  const end = r < 0.78 ? '.' : r < 0.92 ? '!' : r < 0.96 ? '...' : '!!';
  return capitalize(body) + end;
}

/** One review sentence: plain, contrastive ("X, but Y" where Y carries the label) or coordinated. */
function sentence(g: Gen, d: Domain, p: Polarity): string {
  const r = g.random();
  let body: string;
  if (r < 0.55) body = clause(g, d, p);
  else if (r < 0.7) body = `${clause(g, d, flip(p), true)}, but ${g.chance(0.5) ? g.pick(OVERALL[p] as string[]) : clause(g, d, p)}`;
  else if (r < 0.78) body = `although ${clause(g, d, flip(p), true)}, ${clause(g, d, p)}`;
  else body = `${clause(g, d, p)}${g.chance(0.3) ? ',' : ''} and ${clause(g, d, p)}`;
  if (g.chance(0.18) && (r < 0.55 || r >= 0.78)) body = `${g.pick(PREFIX[p] as string[])} ${body}`;
  else if (g.chance(0.06)) body = `what a ${g.pick(p === 1 ? L('great|wonderful|fantastic|lovely') : L('disappointing|terrible|forgettable|sad'))} ${g.pick(d.nouns)}! ${capitalize(body)}`;
  return finish(g, body);
}

/** A review of several sentences: context, opinions (maybe one aside of the other polarity), verdict. */
function review(g: Gen, d: Domain, p: Polarity, opinions: number): string {
  const parts: string[] = [];
  if (g.chance(0.6)) parts.push(g.pick(d.openers));
  for (let i = 0; i < opinions; i++) parts.push(sentence(g, d, p));
  if (g.chance(0.3)) {
    let aside = g.pick(g.pick(d.groups).aspects).replace('*', '');
    for (let i = 0; i < 20 && parts.join(' ').toLowerCase().includes(aside); i++) aside = g.pick(g.pick(d.groups).aspects).replace('*', '');
    parts.splice(Math.max(1, parts.length - 1), 0, capitalize(`${p === 1 ? 'the only downside was' : 'the only good thing was'} ${aside}.`));
  }
  if (g.chance(0.7)) parts.push(g.pick(p === 1 ? d.posClose : d.negClose));
  return parts.join(' ');
}

/** A short social-media post: lower case, slang, @mentions and #hashtags, no emoji. */
function tweet(g: Gen, d: Domain, p: Polarity): string {
  const item = g.pick(d.items);
  const r = g.random();
  let body: string;
  if (r < 0.3) body = agree(`${item} ${g.pick(SLANG[p] as string[])}`, isPlural(item));
  else if (r < 0.45) body = g.pick(TWEET_SHOUT[p] as string[]);
  else if (r < 0.6) {
    const aspect = g.pick(g.pick(d.groups).aspects);
    body = agree(`${aspect} ${d.prep} ${item} ${g.pick(SLANG[p] as string[])}`, isPlural(aspect));
  } else body = clause(g, d, p);
  body = body.toLowerCase().replace(/\bso\b/, () => (g.chance(0.3) ? 'sooo' : 'so'));
  if (g.chance(0.35)) body = `${g.pick(TWEET_OPEN[p] as string[])} ${body}`;
  if (g.chance(0.35)) body = `${g.pick(g.chance(0.6) ? d.handles : L(FRIENDS))} ${body}`;
  if (g.chance(0.25)) body += `${g.pick(L(' |. |, | - '))}${g.pick(TWEET_END[p] as string[])}`;
  if (g.chance(0.2)) body += g.pick(L('!!!|!!|...|?!'));
  const tags = new Set<string>();
  for (let n = g.chance(0.45) ? 1 + randomIndex(g.random, 3) : 0; n > 0; n--) tags.add(g.pick(d.tags));
  for (const tag of tags) body += ` ${tag}`;
  return body;
}

/** Informal writing: contractions in about half the texts, and tweets that drop apostrophes altogether. */
function contract(g: Gen, text: string, source: 'review' | 'tweet'): string {
  if (g.chance(0.5)) return text;
  let out = text
    .replace(/\b(is|are|was|were|do|does|did|would|could|have) not\b/gi, "$1n't")
    .replace(/\bwill not\b/g, "won't")
    .replace(/\bcannot\b/gi, (m) => (m[0] === 'C' ? "Can't" : "can't"))
    .replace(/\bI (am|have(?! no\b)|would)\b/gi, (m, verb: string) => `${m[0]}'${{ am: 'm', have: 've', would: 'd' }[verb.toLowerCase()] ?? verb}`);
  if (source === 'tweet' && g.chance(0.5)) out = out.replace(/'/g, '');
  return out;
}

/** Generates `count` unique rows with exactly balanced labels; the same seed always gives the same rows. */
export function generateRows(seed = DEFAULT_SEED, count = DEFAULT_COUNT): GeneratedRow[] {
  const g = new Gen(createRandom(seed));
  const labels: Polarity[] = Array.from({ length: count }, (_, i) => (i % 2) as Polarity);
  for (let i = labels.length - 1; i > 0; i--) {
    const j = randomIndex(g.random, i + 1);
    [labels[i], labels[j]] = [labels[j] as Polarity, labels[i] as Polarity];
  }
  const seen = new Set<string>();
  const rows: GeneratedRow[] = [];
  for (const label of labels) {
    const source = g.chance(TWEET_SHARE) ? 'tweet' : 'review';
    for (let attempt = 0; ; attempt++) {
      if (attempt > 1000) throw new Error('grammar too small: cannot find a new unique text');
      const domain = g.pick(DOMAINS);
      const d: Domain = { ...domain, items: [g.pick(domain.items)] }; // one text reviews one item
      const r = g.random();
      const raw = source === 'tweet' ? tweet(g, d, label)
        : r < 0.78 ? sentence(g, d, label)
        : r < 0.97 ? review(g, d, label, 1 + randomIndex(g.random, 2))
        : review(g, d, label, 3 + randomIndex(g.random, 3));
      const informal = contract(g, raw, source);
      if (seen.has(informal) || wordCount(informal) > MAX_WORDS) continue;
      seen.add(informal);
      rows.push({ text: informal, label, source });
      break;
    }
  }
  return rows;
}

/** JSON Lines with a fixed key order, so regenerating gives a byte-identical file. */
export function serializeRows(rows: readonly GeneratedRow[]): string {
  return rows.map((r) => JSON.stringify({ text: r.text, label: r.label, source: r.source })).join('\n') + '\n';
}

/** Word-count summary printed by the generator and quoted in datasets/README.md. */
export function lengthStats(rows: readonly GeneratedRow[]): Record<string, number> {
  const words = rows.map((r) => wordCount(r.text)).sort((a, b) => a - b);
  const mean = words.reduce((a, b) => a + b, 0) / words.length;
  return {
    count: rows.length,
    positive: rows.filter((r) => r.label === 1).length,
    tweets: rows.filter((r) => r.source === 'tweet').length,
    meanWords: Math.round(mean * 10) / 10,
    medianWords: percentileOfSorted(words, 50),
    p95Words: percentileOfSorted(words, 95),
    minWords: words[0] ?? 0,
    maxWords: words[words.length - 1] ?? 0,
    over30Words: words.filter((w) => w > 30).length,
  };
}

function main(argv: readonly string[]): number {
  const option = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const seed = Number(option('--seed') ?? DEFAULT_SEED);
  const count = Number(option('--count') ?? DEFAULT_COUNT);
  const out = resolve(option('--out') ?? embeddedDatasetPath());
  const rows = generateRows(seed, count);
  const content = serializeRows(rows);
  console.log(JSON.stringify({ seed, ...lengthStats(rows), bytes: Buffer.byteLength(content) }));
  for (const source of ['review', 'tweet'] as const) console.log(source, JSON.stringify(lengthStats(rows.filter((r) => r.source === source))));
  if (argv.includes('--check')) {
    const same = readFileSync(out, 'utf8') === content;
    console.log(same ? `${out} is up to date` : `${out} differs from what seed ${seed} generates`);
    return same ? 0 : 1;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, content);
  console.log(`wrote ${out}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
