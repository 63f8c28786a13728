"""Articles for data/sample/articles.jsonl: "Help! My pet just…" (original, written by the
Scout team). General guidance in plain language, not a substitute for a vet.

Each article: id, title ("My …" or "Help! My …"), situation, species, urgency
(emergency / call_vet / home_care), summary, body (paragraphs; the last one starts with
"When to see a vet:"), keywords. build_data.py adds "kind" and "source" and sorts by id.
"""

SOURCE = "Written by the Scout team. General guidance, not a substitute for a vet."

ARTICLES = []


def article(id, title, situation, species, urgency, summary, paragraphs, keywords):
    ARTICLES.append({
        "id": "article-" + id, "title": title, "situation": situation, "species": species,
        "urgency": urgency, "summary": summary, "body": "\n\n".join(paragraphs),
        "keywords": keywords,
    })


# --- poisons ---------------------------------------------------------------------------

article(
    "ate-chocolate", "My dog ate chocolate", "ate chocolate", ["dog"], "emergency",
    "Chocolate is poisonous to dogs, and dark and baking chocolate are the worst. Call a vet "
    "now, even if your dog seems fine.",
    ["Chocolate contains theobromine, which dogs break down very slowly. It can cause "
     "vomiting, diarrhoea, restlessness, a racing heart, shaking and, in bad cases, "
     "seizures. Signs can take several hours to appear, so a dog that looks well now may "
     "not stay well.",
     "How dangerous it is depends on the type of chocolate, how much was eaten and the size "
     "of your dog. Dark chocolate, cooking chocolate and cocoa powder are far more toxic "
     "than milk chocolate. White chocolate contains very little theobromine, but the fat "
     "and sugar can still upset the stomach.",
     "Work out what was eaten: find the wrapper, guess the amount, note the time and have "
     "your dog's weight ready. Do not try to make your dog sick at home; salt water and "
     "other home remedies can be dangerous. A vet can safely make your dog vomit if it is "
     "early enough, usually within an hour or two.",
     "When to see a vet: call a vet straight away, even if your dog seems normal. Go at once "
     "if your dog is shaking, panting hard, very restless or having a seizure."],
    ["chocolate", "ate", "poison", "cocoa", "theobromine", "toxic", "easter eggs"])

article(
    "ate-grapes-raisins", "My dog ate grapes or raisins", "ate grapes or raisins", ["dog"],
    "emergency",
    "Grapes, raisins, sultanas and currants can cause sudden kidney failure in dogs. There "
    "is no known safe amount, so treat any amount as an emergency.",
    ["Some dogs eat a whole bunch of grapes and seem fine, while others develop kidney "
     "failure after only a few. Nobody can predict which dog will react, so vets treat "
     "every case seriously. Dried fruit is the most concentrated form: watch out for fruit "
     "cake, hot cross buns, mince pies, trail mix and cereal bars.",
     "Early signs include vomiting, diarrhoea, tiredness and not wanting to eat. Kidney "
     "damage can follow over one to three days, when a dog may drink a lot, then pass "
     "little or no urine.",
     "Do not wait for symptoms. Treatment works best early, usually making your dog vomit "
     "and then giving fluids through a drip to protect the kidneys. Do not try to make your "
     "dog sick yourself. Take the packaging with you and tell the vet roughly how much was "
     "eaten and when.",
     "When to see a vet: straight away, today, whatever the amount and even if your dog "
     "seems completely well."],
    ["grapes", "raisins", "sultanas", "currants", "kidney", "ate", "poison", "fruit cake"])

article(
    "ate-xylitol", "Help! My dog ate sugar-free gum", "ate xylitol gum", ["dog"], "emergency",
    "Xylitol, a sweetener in sugar-free gum and sweets, can make a dog's blood sugar crash "
    "within an hour and can damage the liver. This is an emergency.",
    ["Xylitol (sometimes called birch sugar or E967) is safe for people but very dangerous "
     "for dogs. It makes a dog's body release a rush of insulin, so blood sugar drops fast. "
     "Larger amounts can also cause liver failure a day or two later.",
     "It is found in sugar-free chewing gum, mints and sweets, some peanut butters, "
     "toothpaste, mouthwash, chewable vitamins and some baked goods. Check the label: "
     "even a few pieces of gum can be enough for a small dog.",
     "Signs of low blood sugar can start within 10 to 60 minutes: weakness, wobbling, "
     "vomiting, trembling, collapse or seizures. Do not wait for them to appear. Do not try "
     "to make your dog sick at home. Bring the packet so the vet can see how much xylitol "
     "it contains.",
     "When to see a vet: now. Phone the nearest vet on your way so they can be ready, and "
     "keep your dog calm and warm during the journey."],
    ["xylitol", "sugar-free gum", "chewing gum", "sweetener", "ate", "poison", "peanut butter",
     "low blood sugar"])

article(
    "cat-ate-lily", "Help! My cat chewed a lily", "ate lily", ["cat"], "emergency",
    "Every part of a lily is poisonous to cats, including the pollen and the water in the "
    "vase. A tiny amount can cause kidney failure. Go to a vet now.",
    ["True lilies (Easter lily, tiger lily, Asiatic lilies, stargazers and many bouquet "
     "lilies) and day lilies are extremely toxic to cats. Licking pollen off their fur or "
     "drinking vase water is enough. Without quick treatment, the kidneys can fail within "
     "one to three days.",
     "Early signs are drooling, vomiting, hiding and not eating. Some cats then seem to "
     "get better for a while before the kidney damage shows, so an improvement does not "
     "mean the danger has passed.",
     "If there is pollen on your cat's fur or face, gently wipe it off with a damp cloth "
     "and keep your cat from grooming until you reach the vet. Take the plant or a photo "
     "of it with you. Treatment started within a few hours, usually fluids through a drip "
     "for two or three days, gives the best chance of a full recovery.",
     "The safest choice is to keep lilies out of any home with a cat.",
     "When to see a vet: immediately, even if you only suspect contact with a lily and your "
     "cat seems fine."],
    ["lily", "lilies", "pollen", "cat", "kidney", "poison", "flowers", "bouquet"])

article(
    "ate-rat-poison", "My dog ate rat poison", "ate rat poison", ["dog", "cat"],
    "emergency",
    "Rat and mouse poisons can cause internal bleeding, brain swelling or kidney failure, "
    "sometimes days later. Call a vet now and bring the packaging.",
    ["Many rodent baits stop the blood from clotting. Signs can take three to five days to "
     "show: weakness, pale gums, bruising, nosebleeds, coughing, blood in the urine or "
     "stool, or trouble breathing. Other baits work differently and can cause tremors, "
     "seizures or kidney damage much sooner. Pets can also be poisoned by eating a "
     "poisoned rat or mouse.",
     "Knowing the exact product matters, because the treatment depends on the active "
     "ingredient. Find the packet or a photo of the label, or ask the pest-control company "
     "what they used and where. Estimate how much is missing and when your pet could have "
     "eaten it.",
     "Do not try to make your pet vomit at home. If it was eaten recently, a vet can empty "
     "the stomach safely and may give an antidote (vitamin K for the anti-clotting types) "
     "or run blood tests over the following days.",
     "When to see a vet: straight away, even if your pet looks perfectly well. Go as an "
     "emergency if there is any bleeding, weakness, pale gums or breathing trouble."],
    ["rat poison", "mouse poison", "rodenticide", "bait", "bleeding", "poison", "ate"])

article(
    "ate-onion-garlic", "My dog ate onions or garlic", "ate onion or garlic", ["dog", "cat"],
    "call_vet",
    "Onions, garlic, leeks and chives can damage red blood cells in dogs and cats. Phone a "
    "vet with an idea of how much was eaten.",
    ["All members of the onion family are toxic to pets, whether raw, cooked, dried or "
     "powdered. Onion and garlic powder are concentrated, so gravy, stock cubes, soups and "
     "takeaway food can contain a lot. Cats and Japanese breeds such as the Shiba Inu and "
     "Akita are especially sensitive.",
     "A small lick of food cooked with a little onion is unlikely to harm a large dog, but "
     "a larger amount, or repeated small amounts over days, can cause anaemia. The signs "
     "usually appear one to five days later: tiredness, weakness, pale gums, fast "
     "breathing and red or brown urine. Vomiting and diarrhoea may come first.",
     "Note what was eaten, how much and when, and your pet's weight. Do not make your pet "
     "sick at home. Keep an eye on energy levels and gum colour for the next week.",
     "When to see a vet: phone a vet today for advice on whether the amount is risky. Go "
     "straight away if your pet is weak, breathing fast, has pale gums or dark urine."],
    ["onion", "garlic", "leek", "chives", "anaemia", "ate", "poison", "gravy"])

article(
    "swallowed-battery", "Help! My dog swallowed a battery", "swallowed a battery",
    ["dog", "cat"], "emergency",
    "Button batteries can burn through the gullet or stomach in a few hours. Any swallowed "
    "or chewed battery is an emergency.",
    ["Small round button or coin batteries, from remote controls, watches, car keys and "
     "toys, react with moisture in the body and cause deep chemical burns. Damage can start "
     "within two hours. Chewed household batteries can leak alkali or acid that burns the "
     "mouth and throat.",
     "Signs include drooling, pawing at the mouth, gagging, vomiting, not eating, pain when "
     "swallowing and a sore, red mouth. Some pets show nothing at first, which does not "
     "mean the battery is harmless.",
     "Do not make your pet sick: the battery can burn the gullet again on the way up. Do "
     "not give food or water unless a vet tells you to. Find out what type of battery it "
     "was, take a matching one or the packaging with you, and go. The vet will usually take "
     "an X-ray and may remove the battery with an endoscope or surgery.",
     "When to see a vet: immediately. Phone ahead so the practice can prepare while you "
     "are on the way."],
    ["battery", "button battery", "swallowed", "burn", "remote control", "emergency",
     "coin battery"])

article(
    "ate-human-medicine", "My dog ate my painkillers", "ate human medicine", ["dog", "cat"],
    "emergency",
    "Human medicines such as ibuprofen, naproxen and paracetamol can badly damage a pet's "
    "stomach, kidneys, liver or blood. Call a vet straight away.",
    ["Pets often find dropped tablets or chew through blister packs. Anti-inflammatory "
     "painkillers (ibuprofen, naproxen, aspirin, diclofenac) can cause stomach ulcers and "
     "kidney failure in dogs and cats. Paracetamol is especially dangerous to cats: even "
     "part of one tablet can be fatal. Antidepressants, ADHD medicines, sleeping pills, "
     "heart and blood pressure tablets are also risky.",
     "Collect the packet and count what is missing, so you can tell the vet the name, the "
     "strength and the most your pet could have eaten. Note the time. Do not try to make "
     "your pet sick at home and do not give any other medicine to 'balance it out'.",
     "Never give your pet human medicine unless a vet has told you to; pet doses and "
     "products are different.",
     "When to see a vet: call now, even if only one tablet may be missing and your pet "
     "seems fine. Go as an emergency if there is vomiting, wobbliness, fast breathing, "
     "swelling of the face or paws, or collapse."],
    ["ibuprofen", "paracetamol", "painkillers", "tablets", "medicine", "pills", "poison",
     "ate"])

article(
    "ate-antifreeze", "Help! My cat drank antifreeze", "drank antifreeze", ["cat", "dog"],
    "emergency",
    "Antifreeze tastes sweet and a few licks can cause fatal kidney failure. Treatment only "
    "works if it starts within hours.",
    ["Most car antifreeze and coolant contains ethylene glycol. Cats and dogs like its sweet "
     "taste, and it is often spilled on driveways or leaks from cars. Less than a teaspoon "
     "can kill a cat.",
     "In the first hours a pet may look drunk: wobbly, sleepy, vomiting, drinking and "
     "peeing a lot. They may then seem to recover, while the kidneys are being damaged. "
     "By the time kidney signs show, treatment may no longer work.",
     "If you saw it happen or suspect it, do not wait for signs. Take the container with "
     "you. Do not try to make your pet sick. Wipe any antifreeze off the paws and fur with a "
     "damp cloth so it cannot be licked off. Clean up spills with cat litter or sand, and "
     "store antifreeze sealed and out of reach.",
     "When to see a vet: immediately, even if you are not sure any was swallowed. There "
     "is an antidote, but it must be given early."],
    ["antifreeze", "coolant", "ethylene glycol", "poison", "drank", "kidney", "car"])

article(
    "licked-toad", "My dog licked a toad", "licked a toad", ["dog"], "call_vet",
    "Toads release a bitter toxin from their skin. Most dogs only drool and foam for a while, "
    "but some become really unwell, so wipe the mouth and call a vet.",
    ["Common toads in Ireland, the UK and Poland produce a toxin when a dog mouths or licks "
     "them. The usual signs appear within minutes: heavy drooling, foaming, pawing at the "
     "mouth, shaking the head and sometimes vomiting. Young dogs that like to pick things up "
     "are the usual victims, often in the evening in spring and after rain.",
     "Wipe your dog's gums, tongue and the inside of the cheeks with a damp cloth, working "
     "from the back of the mouth to the front, and rinse the cloth often. Do not pour or "
     "spray water down the throat, because your dog could breathe it in. Keep your dog calm "
     "and out of the heat.",
     "Most dogs recover within an hour or two. Rarely, toad toxin affects the heart or "
     "causes wobbliness or seizures, especially in small dogs.",
     "When to see a vet: phone a vet for advice after rinsing. Go as an emergency if your "
     "dog is wobbly, twitching, has a seizure, collapses, has very red gums or a racing or "
     "irregular heartbeat."],
    ["toad", "frog", "licked", "drooling", "foaming", "mouth", "poison"])

article(
    "ate-bread-dough", "My dog ate raw bread dough", "ate bread dough", ["dog"], "emergency",
    "Raw yeast dough keeps rising in the warm stomach and makes alcohol. It can cause a "
    "painful swollen stomach and alcohol poisoning, so see a vet now.",
    ["Unbaked dough made with yeast, including pizza dough and bread left to prove, expands "
     "in the stomach. This can stretch the stomach, cause pain and, in large dogs, may lead "
     "to a twisted stomach. As the yeast ferments it also produces alcohol, which is "
     "absorbed into the blood.",
     "Signs can include a swollen, tight belly, retching without bringing anything up, "
     "drooling, restlessness, wobbliness, sleepiness, low body temperature and in serious "
     "cases collapse or seizures.",
     "Do not make your dog vomit at home and do not give water to 'dilute' it. Note how "
     "much dough is missing, what was in it (raisins or chocolate chips add other poisons) "
     "and when it was eaten.",
     "When to see a vet: straight away. Go as an emergency if the belly is swollen, your dog "
     "is retching or wobbly, or seems drunk or very sleepy."],
    ["bread dough", "yeast", "pizza dough", "alcohol", "bloat", "ate", "raw dough"])

# --- swallowed things and food -----------------------------------------------------------

article(
    "swallowed-object", "My dog swallowed a sock", "chewed a sock or swallowed an object",
    ["dog", "cat"], "call_vet",
    "Swallowed socks, toys, corn cobs and string can get stuck in the gut. Call a vet for "
    "advice before it causes a blockage.",
    ["Dogs swallow socks, underwear, toy parts, stones, corn cobs and fruit stones; cats "
     "tend to swallow string, thread, hair ties and tinsel. Some items pass through, but "
     "many get stuck in the stomach or intestine and cause a blockage, which needs surgery.",
     "Never pull on string or thread you can see hanging from your pet's mouth or bottom. "
     "It may be wrapped round something inside and pulling can cut the gut. Do not try to "
     "make your pet vomit at home, because an object can get stuck on the way back up.",
     "If the vet advises watching at home, check every poo and keep an eye out for "
     "vomiting, not eating, a tender belly, straining, lethargy or a hunched back.",
     "When to see a vet: call a vet now. It is sometimes possible to make your pet bring the "
     "item up if it was swallowed recently and is safe to return. Go straight away if your "
     "pet keeps vomiting, cannot keep water down, has a painful or swollen belly, or string "
     "is involved."],
    ["sock", "swallowed", "toy", "string", "blockage", "object", "corn cob", "ate"])

article(
    "ate-cooked-bone", "My dog ate a cooked bone", "ate a bone", ["dog"], "call_vet",
    "Cooked bones can splinter and cause choking, mouth injuries, constipation or a blocked "
    "or torn gut. Watch closely and call a vet for advice.",
    ["Cooked bones, especially chicken, pork chop and rib bones, are brittle. Sharp pieces "
     "can stick in the mouth or throat, and larger pieces can block the gut or scratch its "
     "lining. Many dogs pass small bits without trouble, but it is worth being careful.",
     "First, check your dog is breathing normally and not choking or pawing at the mouth. "
     "If you can see a bone wedged across the roof of the mouth, do not try to lever it out "
     "with your fingers; let the vet do it. Do not make your dog vomit, because sharp pieces "
     "can cause damage on the way up.",
     "Over the next few days, watch for vomiting, not eating, straining to poo, hard chalky "
     "poo, blood in the poo, a tender belly or low energy. Keep meals to your dog's normal "
     "food and make sure fresh water is always available.",
     "When to see a vet: call a vet today for advice. Go at once if your dog is choking, "
     "retching, vomiting repeatedly, in pain, straining without passing anything, or has "
     "blood in the poo."],
    ["bone", "chicken bone", "cooked bone", "swallowed", "splinter", "choking", "ate"])

article(
    "eating-grass", "My dog keeps eating grass", "is eating grass", ["dog"], "home_care",
    "Most dogs eat grass now and then and it is usually harmless. Watch for sickness or "
    "grass eating that is new and frantic.",
    ["Plenty of healthy dogs graze on grass. Some simply like the taste or texture, some do "
     "it out of boredom, and some seem to eat it when their stomach feels a little unsettled. "
     "Occasionally a dog vomits afterwards and then carries on as normal.",
     "Keep grass eating safe: avoid lawns and verges that may have been sprayed with weed "
     "killer, fertiliser or slug pellets, and keep an eye out for toxic garden plants. Long, "
     "tough grass blades can sometimes irritate the throat or get stuck, so discourage "
     "gulping large mouthfuls.",
     "If your dog seems bored, more walks, sniffing games, food puzzles and chews can help. "
     "Make sure their diet is complete and balanced.",
     "When to see a vet: if your dog suddenly starts eating grass desperately, vomits more "
     "than once or twice, has diarrhoea, stops eating, seems in pain or lethargic, or if "
     "grass eating is a new habit that does not settle within a few days."],
    ["grass", "eating grass", "vomit", "stomach", "boredom", "ate"])

# --- stomach and gut -------------------------------------------------------------------------

article(
    "wont-eat", "My dog won't eat", "won't eat", ["dog", "cat"], "call_vet",
    "A healthy adult dog can skip a meal now and then, but a pet that refuses food for a day, "
    "or a cat that stops eating, needs a vet's advice.",
    ["Pets go off their food for many reasons: heat, stress, a change of food, a sore mouth, "
     "an upset stomach, pain or a more serious illness. Look for other clues: vomiting, "
     "diarrhoea, drooling, lethargy, a tender belly, or a chance they swallowed something.",
     "For an otherwise bright adult dog, offer the usual food at normal times and take it "
     "away after 20 minutes rather than leaving it out or tempting them with treats. Make sure "
     "fresh water is available. Check the teeth and gums for anything obvious.",
     "Cats are different. A cat that does not eat for more than a day or two can develop a "
     "serious liver problem, especially if overweight, so do not wait long. Puppies, "
     "kittens, older pets and pets with diabetes need advice sooner too.",
     "When to see a vet: call a vet if a dog has not eaten for 24 hours, or a cat for "
     "24 hours, or sooner if there is vomiting, diarrhoea, pain, weakness or weight loss. "
     "Go the same day if your pet will not drink either."],
    ["won't eat", "not eating", "appetite", "off food", "refusing food", "picky"])

article(
    "vomiting", "My dog threw up", "is vomiting", ["dog", "cat"], "home_care",
    "A single bout of vomiting in an otherwise bright pet can often be managed at home. "
    "Repeated vomiting, blood or a tired, unwell pet needs a vet.",
    ["Dogs and cats vomit now and then after eating too fast, eating grass or scavenging "
     "something unsuitable. If your pet has been sick once or twice and is otherwise bright, "
     "alert and interested in things, you can usually start with home care.",
     "Give the stomach a rest for a few hours, but keep fresh water available in small, "
     "frequent amounts. Then offer a small portion of a bland meal, such as plain cooked "
     "chicken or white fish with rice, or your vet's recommended diet. If that stays down, "
     "give small meals for a day or two before returning to normal food. Puppies, kittens, "
     "tiny breeds and diabetic pets should not go without food; ask your vet first.",
     "Keep a note of how often your pet is sick and what comes up.",
     "Some dogs bring up a little yellow, frothy bile early in the morning or before a meal, "
     "after the stomach has been empty for a long time. If that is the only sign, more, "
     "smaller meals, with the last one late in the evening, often stop it; if it keeps "
     "happening, ask your vet.",
     "When to see a vet: if vomiting happens more than two or three times, goes on beyond "
     "a day, contains blood or looks like coffee grounds, or if your pet cannot keep water "
     "down, is lethargic, has a swollen or painful belly, has diarrhoea as well, may have "
     "eaten a poison or an object, or is very young or old."],
    ["vomiting", "threw up", "sick", "vomit", "bland diet", "stomach", "puke", "bile", "yellow foam"])

article(
    "diarrhoea", "My dog has diarrhoea", "has diarrhoea", ["dog", "cat"], "home_care",
    "Short bouts of diarrhoea in a bright, well pet often settle with rest, water and a "
    "bland diet. Blood, vomiting or a flat, unwell pet needs a vet.",
    ["Diarrhoea is common after a change of diet, scavenging, stress or a mild tummy bug. "
     "The main risk is losing fluid, so make sure fresh water is always available and your "
     "pet is drinking.",
     "Feed small, frequent meals of a bland diet such as plain cooked chicken or white fish "
     "with rice, or a vet's gut-friendly diet, for two or three days, then mix back in the "
     "usual food gradually. Avoid treats, milk and fatty scraps. A pet probiotic can help. "
     "Do not give human anti-diarrhoea medicines.",
     "Keep your pet's bedding and bottom clean, wash your hands, and pick up the poo so you "
     "can see whether it is improving.",
     "When to see a vet: if the diarrhoea lasts more than 48 hours, contains blood or is "
     "black and tarry, comes with vomiting, or your pet is lethargic, not eating, not "
     "drinking or in pain. Puppies, kittens, older pets and those with other illnesses "
     "should be seen sooner, and unvaccinated puppies straight away."],
    ["diarrhoea", "diarrhea", "loose stool", "runny poo", "upset stomach", "bland diet"])

article(
    "bloat", "Help! My dog's belly is swollen", "has a swollen belly (bloat)", ["dog"],
    "emergency",
    "A suddenly swollen, tight belly with retching that brings nothing up can be bloat "
    "(a twisted stomach). It can kill within hours. Go to a vet now.",
    ["Gastric dilatation and volvulus (GDV), often called bloat, happens when the stomach "
     "fills with gas and twists. Blood supply is cut off and shock sets in quickly. It is "
     "most common in large, deep-chested dogs such as Great Danes, German Shepherds, "
     "Setters, Weimaraners and Standard Poodles, often after a large meal or exercise.",
     "Typical signs are retching or trying to vomit without bringing anything up, a swollen "
     "or drum-tight belly, drooling, restlessness, pacing, looking at the belly, pale gums "
     "and weakness or collapse.",
     "Do not wait to see if it settles and do not give anything by mouth. Phone the nearest "
     "vet, including an out-of-hours service, and go. Surgery is usually needed.",
     "To lower the risk in large breeds: feed two or three smaller meals a day, slow down "
     "fast eaters, and avoid hard exercise for an hour or so before and after meals.",
     "When to see a vet: immediately. Minutes matter."],
    ["bloat", "gdv", "swollen belly", "twisted stomach", "retching", "emergency", "belly"])

article(
    "hiccups", "My puppy has hiccups", "has hiccups", ["dog"], "home_care",
    "Hiccups are common in puppies and usually stop on their own within minutes. They are "
    "rarely a sign of anything serious.",
    ["Hiccups are quick spasms of the diaphragm, the muscle under the lungs. Puppies get "
     "them often, especially after eating or drinking quickly, after excited play or when "
     "they are tired. Adult dogs get them less often.",
     "Most bouts pass within a few minutes without help. A calm cuddle, a gentle tummy rub "
     "or a short, easy walk can help your dog relax. A small drink of water may help too. "
     "Never try to startle a dog out of hiccups.",
     "If your dog gulps food, a slow-feeder bowl or a food puzzle can help, and several "
     "smaller meals a day are easier on a small stomach.",
     "When to see a vet: if hiccups last for hours or keep coming back often, or come with "
     "coughing, wheezing, breathing difficulty, vomiting, drooling, not eating or signs of "
     "discomfort. In an older dog with new hiccups, it is worth a check-up."],
    ["hiccups", "hiccup", "puppy", "diaphragm", "eating fast", "breathing"])

article(
    "car-sick", "My dog gets car sick", "gets car sick", ["dog"], "home_care",
    "Travel sickness is common, especially in puppies. A few simple changes and gradual "
    "practice help most dogs, and vets can prescribe anti-sickness medicine.",
    ["Signs of car sickness include yawning, lip licking, drooling, whining, restlessness "
     "and vomiting. Puppies are more prone because the balance organs in their ears are "
     "still developing, and many grow out of it. Some dogs are sick because they feel "
     "anxious about the car.",
     "Help your dog by not feeding a big meal for a few hours before the journey (water is "
     "fine), keeping the car cool with some fresh air, and securing your dog facing forward "
     "in a crate or with a harness and seat belt. Take short, calm trips to somewhere fun, "
     "stop for breaks on longer journeys, and reward calm behaviour.",
     "Do not give human travel sickness tablets; some are dangerous for dogs.",
     "When to see a vet: if your dog is sick on every journey, very anxious, or you have a "
     "long trip planned. Your vet can prescribe a safe anti-sickness or calming medicine and "
     "check there is no other cause."],
    ["car sick", "travel sickness", "vomiting", "drooling", "car", "journey", "puppy"])

article(
    "scooting", "My dog keeps scooting", "is scooting", ["dog"], "home_care",
    "Dragging the bottom along the floor usually means an itchy or uncomfortable rear, most "
    "often full anal glands. Simple checks help, but a swelling needs a vet.",
    ["Dogs have two small anal glands either side of the bottom that normally empty when "
     "they poo. If the glands get too full or inflamed, dogs scoot, lick or chew the area, "
     "or turn to look at their tail. Other causes include worms, itchy skin and allergies, "
     "diarrhoea, or poo stuck in the fur.",
     "Have a look: clean off any mess with warm water and trim long fur around the bottom. "
     "Keep up with regular worming. A diet with enough fibre helps firm poo empty the glands "
     "naturally. Do not try to squeeze the glands yourself unless your vet has shown you how.",
     "If the scooting stops after cleaning, keep an eye on it for a few days.",
     "When to see a vet: if scooting continues for more than a few days, or if you see a "
     "red, swollen or hot lump next to the bottom, bleeding, pus, a strong fishy smell, or "
     "your dog is in pain when sitting. These can be signs of an impacted gland or abscess."],
    ["scooting", "anal glands", "bottom", "itchy", "worms", "dragging bottom"])

# --- injuries --------------------------------------------------------------------------------

article(
    "limping", "My dog is limping", "is limping", ["dog", "cat"], "call_vet",
    "A mild limp can be a sore paw or a small strain, but a pet that won't put weight on a "
    "leg, or has a swollen limb, needs a vet.",
    ["Start with a calm, careful look. Check the paw for thorns, splinters, glass, cuts, a "
     "broken nail, a grass seed between the toes or a swollen pad. Feel gently along the "
     "leg for heat, swelling or a spot that makes your pet flinch. A hurt animal may snap, "
     "even a gentle one, so go slowly.",
     "If you find nothing and the limp is mild, rest is the best treatment: short, slow "
     "lead walks for toilet breaks only, no jumping, running or stairs, for a day or two. "
     "Keep cats indoors.",
     "Never give human painkillers such as ibuprofen or paracetamol; they are poisonous to "
     "pets. Ask your vet about pet pain relief.",
     "When to see a vet: if your pet will not put any weight on the leg, the limb is swollen, "
     "hot or at an odd angle, there is a wound, the limp followed a fall or accident, your "
     "pet is in obvious pain, or a mild limp has not improved within 24 to 48 hours."],
    ["limping", "lame", "leg", "paw", "sprain", "injury", "limp"])

article(
    "cut-paw-pad", "My dog cut a paw pad", "cut paw pad", ["dog"], "call_vet",
    "Paw pads bleed a lot and heal slowly because they carry the dog's weight. Stop the "
    "bleeding, keep it clean and get deep cuts checked.",
    ["Cuts from glass, sharp stones, shells or metal are common on walks. Stay calm and "
     "keep your dog still. Rinse the paw gently with clean water or saline to wash out dirt "
     "and check for anything stuck in the wound. If you see a large shard of glass deep in "
     "the pad, leave it for the vet.",
     "Press a clean pad or folded cloth firmly on the cut for at least five minutes without "
     "lifting it to look. Then cover it with a light bandage or a clean sock, held with tape "
     "that is not tight, to keep it clean on the way to the vet. A bandage left on too long "
     "or wrapped too tight can cut off blood flow, so do not leave it on for hours.",
     "Stop your dog licking the wound. Keep walks short and on clean, dry ground until it "
     "heals.",
     "When to see a vet: if the cut is deeper than a scratch, gapes open, is longer than a "
     "centimetre, has something stuck in it, or still bleeds after ten minutes of firm "
     "pressure. Go the same day: deep pad cuts often need stitches or a proper dressing."],
    ["paw pad", "cut", "bleeding", "glass", "paw", "wound", "bandage"])

article(
    "bleeding-nail", "Help! My dog's nail is bleeding", "bleeding nail", ["dog", "cat"],
    "home_care",
    "A nail cut too short or caught on something bleeds a lot but usually stops with "
    "pressure. A torn or hanging nail needs a vet.",
    ["Each nail has a living core with blood vessels and nerves, called the quick. Cutting "
     "into it, or tearing a nail on carpet or a fence, hurts and bleeds surprisingly "
     "heavily, but it is rarely dangerous.",
     "Keep your pet calm and still. Press a clean cloth or tissue firmly against the end of "
     "the nail for five minutes. A styptic powder or pencil sold for pets helps; if you do "
     "not have one, pressing the nail into a little cornflour or plain flour can help it "
     "clot. Then keep your pet quiet for half an hour so the clot is not knocked off.",
     "Next time, trim a little at a time, especially with dark nails where the quick is hard "
     "to see, and reward your pet generously.",
     "When to see a vet: if bleeding has not stopped after 15 minutes of steady pressure, if "
     "a nail is torn, split or hanging, if the toe is swollen, red or smells, or if your "
     "pet is still limping the next day. Torn nails are painful and may need removing under "
     "sedation."],
    ["nail", "bleeding", "quick", "claw", "nail trim", "toenail", "dewclaw"])

article(
    "got-in-fight", "My dog got into a fight", "got into a fight", ["dog", "cat"],
    "call_vet",
    "Bite wounds often look small on the surface but can be deep, and they easily get "
    "infected. Clean the wound and have it checked within a day.",
    ["Separate fighting animals safely: do not put your hands near their heads. A loud noise, "
     "a blanket or a barrier between them is safer. Once apart, keep your pet calm and "
     "check the whole body, parting the fur, especially around the neck, legs and belly. "
     "An injured animal may bite, even its owner.",
     "Small puncture wounds can hide torn tissue underneath. Rinse them gently with clean "
     "water or saline. Press a clean cloth on anything that bleeds. Do not use strong "
     "antiseptics, creams or human medicines.",
     "In cats, bites from other cats often turn into abscesses: a painful, warm swelling "
     "and fever a few days later, with a cat that hides and stops eating.",
     "When to see a vet: within 24 hours for any bite that broke the skin, as antibiotics "
     "or pain relief may be needed. Go as an emergency for heavy bleeding, wounds to the "
     "chest, belly or eyes, breathing difficulty, limping badly, or a pet that is weak, "
     "in shock or collapses. Swap details with the other owner."],
    ["fight", "bite", "bitten", "wound", "abscess", "puncture", "dog fight"])

article(
    "cat-fell-from-window", "Help! My cat fell from a window", "fell from a window",
    ["cat"], "emergency",
    "Cats that fall from windows or balconies often have hidden injuries to the chest, jaw "
    "or legs, even if they land on their feet. Take your cat to a vet now.",
    ["Cats do not always land safely. Falls from a first floor or higher commonly cause a "
     "broken jaw or teeth, chest injuries, bruised lungs, broken legs and shock. A cat may "
     "hide its pain and seem fine at first.",
     "Move your cat gently into a carrier or a box lined with a towel, keeping the body as "
     "level as possible. Wrap the cat in a towel if it struggles, as a frightened, hurt cat "
     "may bite or scratch. Keep it warm and quiet. Do not give food, water or any medicine.",
     "Look for: fast or open-mouth breathing, bleeding from the nose or mouth, pale gums, "
     "limping or not using the back legs, and a dazed or limp cat.",
     "To prevent falls, fit secure screens or nets on windows and balconies, and keep "
     "tilt-and-turn windows closed or secured when you are not in the room.",
     "When to see a vet: straight away after any fall from a height, even if your cat "
     "seems well."],
    ["fell", "fall", "window", "balcony", "high-rise", "injury", "cat", "emergency"])

article(
    "snake-bite", "Help! My dog was bitten by a snake", "bitten by a snake", ["dog"],
    "emergency",
    "In Britain and Poland the adder is the venomous snake most likely to bite a dog. Carry "
    "your dog and go to a vet at once.",
    ["Adders live on heaths, moors, dunes and woodland edges and bite dogs that sniff at "
     "them, usually on the face or the front legs, most often in spring and summer. "
     "(There are no snakes in the wild in Ireland.)",
     "Signs include sudden swelling, often large and painful, two small puncture marks, "
     "bleeding, drooling, pale gums, weakness, vomiting, a fast heartbeat and collapse.",
     "Keep your dog as calm and still as possible and carry it if you can, because moving "
     "spreads the venom faster. Do not cut the wound, suck it, put ice on it or use a "
     "tourniquet. Remove the collar if the neck or face is swelling. Do not try to catch "
     "the snake; a photo taken from a safe distance is enough.",
     "Phone the nearest vet while you travel so they can get antivenom ready.",
     "When to see a vet: immediately, even if the swelling seems small at first. Bites to "
     "the face and neck can swell enough to affect breathing."],
    ["snake bite", "adder", "viper", "swelling", "venom", "bite", "bitten"])

# --- skin, eyes, ears and mouth -------------------------------------------------------------

article(
    "bee-wasp-sting", "My dog was stung by a bee", "was stung by a bee or wasp", ["dog", "cat"],
    "home_care",
    "Most stings cause a painful swelling that settles within a day. Stings in the mouth or "
    "throat, many stings, or trouble breathing are emergencies.",
    ["Dogs and cats usually get stung on the paws or face while chasing insects. The area "
     "becomes swollen, red and sore, and your pet may yelp, lick or paw at it.",
     "If you can see a bee sting, a tiny dark splinter, scrape it out sideways with the "
     "edge of a bank card. Squeezing it with tweezers can push in more venom. Wasps do not "
     "leave a sting. Hold a cold compress (a cloth with ice wrapped inside) on the swelling "
     "for a few minutes at a time. Keep your pet calm and stop it scratching the area.",
     "Do not give human antihistamines or painkillers unless a vet tells you to; some "
     "contain ingredients that are poisonous to pets.",
     "Watch your pet for the next few hours.",
     "When to see a vet: straight away if the sting is in the mouth or throat, the face or "
     "neck is swelling a lot, your pet has been stung many times, or there is any breathing "
     "difficulty, vomiting, weakness, pale gums or collapse. Call a vet if the swelling has "
     "not gone down within a day."],
    ["stung", "bee", "wasp", "sting", "swelling", "allergic reaction", "insect"])

article(
    "tick-bite", "My dog has a tick", "was bitten by a tick", ["dog", "cat"], "home_care",
    "Remove ticks promptly with a tick remover, twisting them out. Watch for illness in the "
    "following weeks, because ticks can carry diseases.",
    ["Ticks are small, grey-brown, bean-shaped parasites that attach to the skin, often on "
     "the head, ears, neck, armpits and between the toes. They are common in long grass "
     "and woodland, from spring to autumn.",
     "Use a tick removal tool (a tick twister or hook) slid under the tick close to the "
     "skin, then twist gently until it comes away. Do not squeeze the tick's body, burn it, "
     "or cover it in oil, alcohol or petroleum jelly: this can make it release more "
     "saliva and germs. Clean the spot and wash your hands. A small bump for a few days is "
     "normal.",
     "Ticks can spread Lyme disease and, in Poland and other parts of Europe, babesiosis, "
     "which can make dogs very ill within days. Ask your vet about a tick preventive suited "
     "to your pet; never use a dog product on a cat.",
     "When to see a vet: if the spot becomes swollen, hot or oozing, or if in the following "
     "weeks your pet is lethargic, feverish, off food, lame, or passes dark red or brown "
     "urine. Dark urine after a tick bite is an emergency."],
    ["tick", "tick bite", "lyme disease", "babesiosis", "tick removal", "parasite"])

article(
    "scratching-a-lot", "My dog is scratching a lot", "is scratching a lot", ["dog", "cat"],
    "home_care",
    "Constant scratching is usually fleas, mites or an allergy. Check for fleas first and "
    "use a vet-recommended treatment.",
    ["Part the fur along the back and near the tail and look for fleas or black specks of "
     "flea dirt. Comb your pet over white paper with a flea comb: if specks turn red-brown "
     "on damp paper, it is flea dirt. Fleas are the most common cause of itching, even in "
     "clean homes.",
     "If you find fleas, treat every dog and cat in the house with a product from your vet, "
     "and wash bedding and vacuum thoroughly. Never use a dog flea product on a cat: many "
     "contain permethrin, which is deadly to cats.",
     "Other causes include mites, allergies to pollen, dust mites or food, dry skin, and "
     "skin infections. Bathing too often with human shampoo can make itching worse.",
     "When to see a vet: if the itching continues despite flea treatment, or you notice "
     "broken or red skin, hot moist patches (hot spots), hair loss, scabs, a bad smell, "
     "itchy ears, or your pet is chewing its paws raw or losing sleep from itching."],
    ["scratching", "itchy", "fleas", "allergy", "mites", "skin", "hot spot", "itch"])

article(
    "red-eye", "My dog's eye is red", "eye is red", ["dog", "cat"], "call_vet",
    "A red or sore eye can be a mild irritation, but it can also be an ulcer or high "
    "pressure in the eye, which can cost an eye if left. Get it checked soon.",
    ["Causes include dust or grass seeds, conjunctivitis, allergies, dry eye, scratches and "
     "ulcers on the surface of the eye, and more serious conditions such as glaucoma or "
     "inflammation inside the eye.",
     "You can gently wipe away discharge with cotton wool dampened with cooled boiled water "
     "or saline, using a fresh piece for each eye and wiping from the inner corner outwards. "
     "Stop your pet rubbing the eye; a cone collar may help.",
     "Do not use human eye drops or ointments, and never use old eye medicine left over from "
     "another problem; some drops make ulcers much worse.",
     "When to see a vet: within a day for any red eye that does not clear quickly. Go the "
     "same day if your pet is squinting, keeps the eye closed, paws at it, or if the eye "
     "looks cloudy, blue, bigger than the other, bulging, or has a visible injury or "
     "something stuck in it. A bulging eye or an eye injury is an emergency."],
    ["red eye", "eye", "conjunctivitis", "squinting", "discharge", "ulcer", "sore eye"])

article(
    "ear-shaking", "My dog keeps shaking its head", "ear shaking", ["dog"], "call_vet",
    "Frequent head shaking or ear scratching usually means an ear problem, such as an "
    "infection, mites or a grass seed. It needs a vet check.",
    ["Look into the ear flap and the opening of the ear canal. Redness, a brown or yellow "
     "discharge, a yeasty or bad smell, or pain when you touch the ear all point to an "
     "ear infection. Dogs with floppy or hairy ears and dogs that swim get them more often.",
     "Sudden, violent head shaking after a walk in long grass can mean a grass seed has gone "
     "down the ear canal. Frequent shaking can also burst a small blood vessel in the ear "
     "flap, making it swell like a cushion (an aural haematoma).",
     "Do not poke cotton buds into the ear, and do not put in oil, vinegar or old ear drops: "
     "if the eardrum is damaged, some drops can cause harm. Gently clean the outer ear "
     "flap only.",
     "When to see a vet: within a day or two for head shaking that keeps happening, a smelly "
     "or dirty ear, or a swollen ear flap. Go the same day after a walk in long grass with "
     "sudden shaking, or if your dog has a head tilt, loses balance, or the ear is very "
     "painful."],
    ["ear", "head shaking", "ear infection", "grass seed", "ear mites", "scratching ears"])

article(
    "grass-seed", "My dog has a grass seed stuck", "has a grass seed stuck", ["dog"],
    "call_vet",
    "Barbed grass seeds can work their way into paws, ears, eyes and noses. Remove one only "
    "if it is loose on the surface; otherwise a vet needs to find it.",
    ["In summer, the arrow-shaped seeds of wild grasses catch in a dog's coat and move only "
     "forward. They can push between the toes, down the ear canal, up the nose or under "
     "the eyelid, and from there travel further under the skin.",
     "Signs depend on where the seed is: licking a paw, with a red lump between the toes; "
     "sudden head shaking; a closed, weeping eye; or sudden, violent sneezing, sometimes "
     "with a nosebleed from one side.",
     "After walks in long grass, check your dog's feet, ears, armpits and coat and brush out "
     "any seeds. Keeping the fur between the toes and around the ears short helps. If a seed "
     "is lying loose in the fur or only just caught in the skin, you can lift it out.",
     "When to see a vet: the same day if you think a seed has gone into an ear, eye or nose, "
     "or if there is a swelling between the toes. A seed left in place can cause abscesses "
     "and may need removal under sedation."],
    ["grass seed", "awn", "paw", "ear", "sneezing", "foxtail", "summer"])

article(
    "bad-breath", "My dog has bad breath", "has bad breath", ["dog", "cat"], "home_care",
    "Bad breath usually means dental disease, which is very common and painful. Start "
    "brushing and book a dental check.",
    ["Plaque and tartar build up on the teeth and cause inflamed gums, which smell. Most "
     "dogs and cats over three years old have some dental disease. Pets rarely show tooth "
     "pain, so they may carry on eating normally while it hurts.",
     "Lift the lip and look: yellow-brown tartar, red gums along the teeth, loose or broken "
     "teeth and drooling are signs of trouble. Daily brushing is the best prevention. Use a "
     "soft pet toothbrush or finger brush and a pet toothpaste. Never use human toothpaste: "
     "it is not meant to be swallowed and some contain xylitol, which is poisonous to dogs. "
     "Dental chews can help a little but are not a substitute.",
     "Start slowly, letting your pet lick the paste first, and reward calm behaviour.",
     "When to see a vet: book a check-up if the breath is bad for more than a few days or "
     "you see tartar, red gums or loose teeth. Go sooner if your pet drools, paws at the "
     "mouth, stops eating, has a swelling on the face, or the breath smells sweet or of "
     "urine, which can point to diabetes or kidney disease."],
    ["bad breath", "teeth", "dental", "tartar", "gums", "brushing", "smell"])

article(
    "lost-a-tooth", "My dog lost a tooth", "lost a tooth", ["dog"], "home_care",
    "Puppies lose their baby teeth between about three and seven months, which is normal. "
    "An adult dog losing or breaking a tooth needs a vet.",
    ["Puppies have 28 baby teeth that fall out as the 42 adult teeth come through, mostly "
     "between three and seven months of age. You may find tiny teeth on the floor, or "
     "notice a little blood on toys. Puppies swallow most of them, which is harmless. Give "
     "safe chew toys to soothe sore gums.",
     "Check that baby teeth do not stay in beside the adult ones, especially the canine "
     "teeth of small breeds. Two teeth in one spot trap food and can make the adult tooth "
     "grow crooked.",
     "In an adult dog, a lost tooth usually means gum disease or an injury. A broken tooth "
     "with a pink or dark dot in the middle has its nerve exposed, which is painful and can "
     "become infected.",
     "When to see a vet: for any adult tooth that is lost, loose or broken, for retained "
     "baby teeth after about seven months, if bleeding from the mouth lasts more than a few "
     "minutes, or if your dog has a swollen face or stops eating."],
    ["tooth", "teeth", "puppy", "baby teeth", "broken tooth", "dental", "teething"])

article(
    "hairball", "My cat is coughing up hairballs", "is bringing up hairballs", ["cat"],
    "home_care",
    "An occasional hairball is normal in cats, especially long-haired ones. Frequent "
    "hairballs or retching without producing one needs a vet.",
    ["Cats swallow loose hair when they groom. Most of it passes in the poo, but some forms "
     "a sausage-shaped wad that the cat brings up with a few retches. Long-haired cats and "
     "cats that groom a lot have more.",
     "Brushing your cat regularly, daily for long-haired cats, removes loose hair before it "
     "is swallowed. A hairball-control diet or a vet-recommended hairball paste can help "
     "hair pass through. Make sure your cat drinks enough; a water fountain or wet food "
     "helps.",
     "Cats that over-groom because of fleas, itchy skin, pain or stress will have more "
     "hairballs, so look for bald patches or sore skin.",
     "When to see a vet: if your cat has hairballs more than once or twice a month, retches "
     "or gags without bringing anything up, vomits repeatedly, stops eating, is constipated "
     "or lethargic, or has a painful belly. A hairball can occasionally block the gut. A "
     "cat that seems to be coughing, with the neck stretched out, may have asthma rather "
     "than a hairball."],
    ["hairball", "cat", "vomiting", "grooming", "fur ball", "coughing", "retching"])

# --- breathing, drinking, urinating ----------------------------------------------------------

article(
    "drinking-a-lot", "My dog is drinking a lot", "drinks a lot", ["dog", "cat"], "call_vet",
    "Drinking more in hot weather or after exercise is normal, but a lasting increase can be "
    "a sign of kidney disease, diabetes or hormone problems.",
    ["Pets drink more in hot weather, after exercise, on dry food or when taking some "
     "medicines. If your pet is drinking clearly more than usual for several days, or you "
     "are refilling the bowl much more often, something may be wrong.",
     "Common causes include kidney disease, diabetes, liver disease, urinary infections, "
     "Cushing's disease in dogs and an overactive thyroid in cats. In an unspayed female "
     "dog a few weeks after her season, heavy drinking can be a sign of a womb infection "
     "(pyometra), which is an emergency.",
     "Never limit water to stop accidents: your pet needs it. Instead, measure how much "
     "goes in over 24 hours, note any weight change, appetite change or extra peeing, and "
     "collect a fresh urine sample in a clean container to take with you.",
     "When to see a vet: within a few days if the drinking stays high. Go the same day if "
     "your pet is also vomiting, lethargic or off food, or if an unspayed female drinks a "
     "lot, has discharge or seems unwell after a season."],
    ["drinking a lot", "thirsty", "water", "kidney", "diabetes", "peeing", "pyometra"])

article(
    "coughing", "My dog is coughing", "is coughing", ["dog"], "call_vet",
    "A cough can be kennel cough, something stuck, or heart or lung disease. Rest your dog, "
    "keep it away from other dogs and call a vet.",
    ["Kennel cough is a common, catching infection that causes a dry, honking cough, often "
     "after a stay in kennels, training classes or time at the park. Most dogs stay bright "
     "and recover in one to three weeks, but puppies, older dogs and flat-faced breeds can "
     "get pneumonia.",
     "Other causes include a grass seed or object in the throat, a collapsing windpipe in "
     "small breeds, lungworm, heart disease in older dogs, and pneumonia.",
     "Let your dog rest and walk it on a harness rather than a collar, which presses on the "
     "windpipe. Keep it away from other dogs until the cough has gone. Steam from a shower "
     "in the bathroom may ease it. Do not give human cough medicines.",
     "When to see a vet: call for an appointment if a cough lasts more than a few days, or "
     "sooner for puppies and older dogs. Go at once if your dog struggles to breathe, "
     "breathes fast at rest, has blue or grey gums, coughs up blood, collapses, or is "
     "lethargic and off food."],
    ["coughing", "cough", "kennel cough", "honking", "breathing", "lungworm", "harness"])

article(
    "sneezing", "My cat keeps sneezing", "is sneezing", ["cat", "dog"], "home_care",
    "The odd sneeze is normal. Cat flu, dust or a grass seed can cause bouts of sneezing; "
    "watch for discharge, nosebleeds and loss of appetite.",
    ["Dust, pollen, perfume, cleaning sprays and smoke all cause sneezing. In cats, repeated "
     "sneezing with runny eyes and nose is often cat flu, a viral infection. In dogs, sudden "
     "violent sneezing after a walk, with pawing at the nose, can mean a grass seed is "
     "stuck.",
     "Dogs sometimes make a loud snorting, honking noise with quick breaths in, called "
     "reverse sneezing. It looks alarming but is usually harmless and stops within a minute; "
     "gently stroking the throat can help.",
     "Wipe discharge from the nose and eyes with damp cotton wool, keep your pet warm, avoid "
     "sprays and smoke, and use steam from a bathroom shower to ease a blocked nose. Cats "
     "with a blocked nose cannot smell their food, so offer strong-smelling, slightly warmed "
     "wet food.",
     "When to see a vet: if sneezing lasts more than a few days, there is thick yellow or "
     "green discharge or a nosebleed, your pet breathes with its mouth open, or a cat stops "
     "eating for a day. See a vet the same day if you suspect a grass seed."],
    ["sneezing", "sneeze", "cat flu", "runny nose", "reverse sneezing", "nose"])

article(
    "cat-straining-to-pee", "Help! My cat is straining to pee", "is straining to pee",
    ["cat"], "emergency",
    "A cat, especially a male cat, going to the litter tray again and again and passing "
    "little or no urine may have a blocked bladder. This is an emergency.",
    ["Cystitis and bladder stones are common in cats, often linked to stress, being "
     "overweight and drinking little. In male cats, crystals or plugs can block the narrow "
     "tube that carries urine out. A blocked cat cannot empty the bladder, and the body "
     "quickly fills with toxins; without treatment a blocked cat can die within a day or "
     "two.",
     "Signs include lots of visits to the litter tray, straining, crying in the tray, passing "
     "only drops or nothing, blood in the urine, peeing in odd places, and licking the "
     "genitals. It can be mistaken for constipation. Later the cat becomes quiet, vomits and "
     "hides.",
     "Do not wait to see if it passes and do not give any medicine.",
     "Once home, help prevent it coming back: more wet food, water fountains, several clean "
     "litter trays, and a calm routine.",
     "When to see a vet: immediately if your cat, particularly a male, strains and passes "
     "little or nothing. Call a vet the same day for any cat peeing small amounts often or "
     "with blood."],
    ["straining", "pee", "urine", "blocked bladder", "cystitis", "litter tray", "cat"])

# --- whole body ------------------------------------------------------------------------------

article(
    "heatstroke", "Help! My dog has heatstroke", "heatstroke", ["dog", "rabbit", "guinea_pig"],
    "emergency",
    "Heavy panting, drooling, wobbliness or collapse on a warm day can be heatstroke, which "
    "can kill. Cool your pet straight away, then go to a vet.",
    ["Pets overheat quickly in hot cars, conservatories, sunny gardens and on walks in warm "
     "weather. Flat-faced breeds, overweight, old and thick-coated dogs are most at risk, and "
     "rabbits and guinea pigs can die from heat in a hutch in full sun.",
     "Signs include heavy panting, thick drooling, bright red or dark gums, restlessness, "
     "vomiting, diarrhoea, wobbling, confusion, seizures and collapse.",
     "Act at once. Move your pet into shade or a cool room. Pour or sponge cool (not "
     "ice-cold) water over the body, or stand a dog in cool water, and keep the water "
     "flowing. A fan or breeze helps. Offer small sips of water but do not force it. Do not "
     "leave a wet towel lying on the body, as it can trap heat. Keep cooling on the way to "
     "the vet, with the car windows open or air conditioning on.",
     "Prevent it: walk dogs in the cool early morning or late evening, give shade and water, "
     "and never leave a pet in a car.",
     "When to see a vet: always, straight after you have started cooling, even if your pet "
     "seems to recover. Heatstroke can damage organs hours later."],
    ["heatstroke", "overheating", "hot car", "panting", "summer", "heat", "collapse"])

article(
    "collapsed", "Help! My dog collapsed", "collapsed", ["dog", "cat"], "emergency",
    "A pet that collapses, faints or cannot get up needs a vet immediately. Check breathing, "
    "keep it warm and still, and phone ahead.",
    ["Collapse has many causes, including heart problems, internal bleeding, low blood "
     "sugar, poisoning, heatstroke, severe allergic reactions, bloat and seizures. Some "
     "pets faint for a few seconds and get up again; that still needs checking.",
     "Stay calm. Check your pet is breathing and look at the gum colour: pink is normal, "
     "while pale, white, grey, blue or bright red gums are a bad sign. Keep your pet lying "
     "on its side with the head and neck straight. Do not give food, water or medicine. "
     "Keep it warm with a blanket, unless it is overheated, in which case cool it.",
     "Move your pet on a board, blanket or coat used as a stretcher, supporting the head and "
     "spine. Note the time, what happened before and anything your pet could have eaten.",
     "When to see a vet: immediately. Phone the nearest practice or out-of-hours vet while "
     "someone else drives, so they are ready when you arrive."],
    ["collapsed", "fainted", "unconscious", "weak", "emergency", "can't stand", "collapse"])

article(
    "pale-gums", "My dog's gums are pale", "has pale gums", ["dog", "cat"], "emergency",
    "Healthy gums are moist and salmon pink. Pale, white or grey gums can mean blood loss, "
    "shock or severe anaemia. Get to a vet now.",
    ["Check gum colour in good light by lifting the upper lip above the canine tooth. "
     "Some dogs have naturally dark or spotted gums; if so, look at the inside of the lower "
     "eyelid instead. Press a fingertip on the gum until it goes pale and let go: the pink "
     "colour should come back within about two seconds.",
     "Pale gums with weakness, fast breathing, a fast heartbeat, cold paws or a swollen belly "
     "can mean internal bleeding (for example from rat poison or a burst tumour), shock, or "
     "the immune system destroying red blood cells. Blue or grey gums mean not enough "
     "oxygen; bright red gums can mean heatstroke or poisoning; yellow gums mean jaundice.",
     "Keep your pet quiet and warm and do not give food or medicine.",
     "When to see a vet: immediately for pale, white, grey or blue gums, especially if your "
     "pet is weak, breathing fast or collapsed. Call the same day for yellow gums."],
    ["pale gums", "white gums", "anaemia", "bleeding", "shock", "gums", "emergency"])

article(
    "seizure", "Help! My dog is having a seizure", "is having a seizure", ["dog", "cat"],
    "emergency",
    "During a seizure keep your pet safe and your hands away from its mouth. Time it, then "
    "call a vet. A seizure lasting over five minutes is an emergency.",
    ["A seizure (fit) can look like stiffening, paddling legs, jaw chomping, drooling, loss "
     "of consciousness, or peeing and pooing. Some are small: twitching of the face or "
     "staring. Causes include epilepsy, poisons, low blood sugar, liver disease and brain "
     "problems.",
     "Stay calm. Move furniture and sharp objects away and keep your pet away from stairs "
     "and water. Do not hold your pet down or put anything in its mouth; pets do not "
     "swallow their tongue, and you may get bitten. Dim the lights, turn off noise, and "
     "time the seizure. A video helps the vet.",
     "Afterwards your pet may be confused, wobbly, blind for a short time, hungry or "
     "restless for minutes to hours. Keep it somewhere quiet and safe.",
     "When to see a vet: go as an emergency if a seizure lasts more than five minutes, "
     "several seizures happen close together, your pet does not recover between them, or it "
     "may have eaten a poison. After a first seizure or a short one, call a vet the same "
     "day."],
    ["seizure", "fit", "epilepsy", "convulsions", "shaking", "twitching", "emergency"])

article(
    "sudden-aggression", "My dog suddenly became aggressive", "sudden aggression",
    ["dog", "cat"], "call_vet",
    "A sudden change to growling, snapping or biting is often caused by pain or illness. "
    "Keep everyone safe and get a vet check before working on behaviour.",
    ["When a normally friendly pet starts to growl, snap, bite or hiss, pain is one of the "
     "most common reasons: sore joints, ears, teeth or belly, or an injury you cannot see. "
     "Other causes include thyroid problems, poor eyesight or hearing in older pets, "
     "confusion, fear after a frightening event, and hormones.",
     "Give your pet space and do not punish growling. Growling is a warning; punishing it "
     "teaches a pet to bite without warning. Note when it happens: being touched somewhere, "
     "near food or toys, when woken, or around certain people or animals. Keep children and "
     "visitors away from your pet until you know more, and use baby gates or a separate room "
     "if needed.",
     "Once the vet has ruled out a medical cause, a qualified behaviourist can help with a "
     "training plan.",
     "When to see a vet: book an appointment soon for any sudden change in temper. Go the "
     "same day if the aggression comes with other signs such as limping, crying out, not "
     "eating, wobbliness or confusion."],
    ["aggression", "aggressive", "growling", "biting", "snapping", "pain", "behaviour"])

article(
    "fireworks-fear", "My dog is scared of fireworks", "fireworks fear", ["dog", "cat"],
    "home_care",
    "Many pets are terrified of fireworks. A safe den, a calm home and planning ahead help, "
    "and a vet can prescribe medicine for bad cases.",
    ["Signs of fear include trembling, panting, pacing, hiding, drooling, barking or "
     "whining, trying to escape and toileting indoors. Fear is not bad behaviour.",
     "Before the noise: walk dogs in daylight, feed an early dinner, and keep cats and "
     "rabbits indoors or bring hutches into a garage or shed. Close windows, doors, cat "
     "flaps and curtains. Make sure microchip details are up to date, because frightened pets "
     "escape.",
     "Set up a den in a quiet room, such as a covered crate or a space behind the sofa with "
     "bedding, and let your pet hide if it wants to. Play music or television to mask the "
     "bangs. Stay calm and at home; it is fine to comfort your pet if it comes to you. Do "
     "not punish it or force it out of a hiding place.",
     "Long term, sound-desensitisation programmes played at low volume over weeks can help.",
     "When to see a vet: a few weeks before the fireworks season if your pet panics, hurts "
     "itself or does not settle. Vets can prescribe anti-anxiety medicine. Never give human "
     "sedatives."],
    ["fireworks", "scared", "fear", "noise", "bonfire night", "new year's eve", "anxiety",
     "thunder"])

article(
    "in-season", "My dog is in heat", "is in heat (in season)", ["dog", "cat"], "home_care",
    "A season is normal for unspayed females. Keep her away from entire males, keep her "
    "clean, and know the signs of a womb infection afterwards.",
    ["Female dogs usually come into season every six to twelve months, and each season lasts "
     "around two to three weeks. Signs include a swollen vulva, bloody discharge, more "
     "licking and peeing, and a change in mood. Cats in season call loudly, roll about, "
     "rub against things and raise their bottom when stroked, and can come back into season "
     "every few weeks.",
     "She can get pregnant throughout the season, even when the bleeding has faded. Walk her "
     "on a lead at quiet times, keep her away from entire males, and do not leave her alone "
     "in the garden. Keep female cats indoors. Washable pants or pads and easy-clean bedding "
     "help with mess.",
     "Talk to your vet about neutering; in dogs it is usually done a few months after a "
     "season.",
     "When to see a vet: if she may have mated and you do not want puppies or kittens, if "
     "the season lasts more than about four weeks, or as an emergency if, in the weeks after "
     "a season, she drinks a lot, has smelly discharge, vomits or seems unwell: this can be "
     "a womb infection called pyometra."],
    ["in season", "in heat", "on heat", "bleeding", "spaying", "pyometra", "female"])

# --- small animals, birds, reptiles, fish and horses ---------------------------------------------

article(
    "rabbit-gi-stasis", "Help! My rabbit stopped eating and pooping", "stopped eating or pooping",
    ["rabbit"], "emergency",
    "A rabbit that stops eating or stops passing droppings for more than a few hours may "
    "have gut stasis, which can be fatal. Call a vet now, even out of hours.",
    ["A rabbit's gut must keep moving all the time. When a rabbit stops eating, the gut slows "
     "down, gas builds up and the rabbit feels worse and eats even less. Pain, stress, dental "
     "problems, a low-fibre diet and other illnesses can all start it off.",
     "Signs include not eating, fewer, smaller or no droppings, sitting hunched, teeth "
     "grinding, a bloated belly, being quiet and not wanting to move.",
     "While you arrange the vet visit, keep your rabbit warm and quiet, and offer fresh hay, "
     "water and its favourite leafy greens. Do not give any medicine or force-feed unless a "
     "vet has shown you how. Take its bonded friend along too if possible.",
     "Prevent it by feeding mostly hay or grass (a pile at least as big as the rabbit every "
     "day), checking droppings daily, and having teeth checked regularly.",
     "When to see a vet: immediately if your rabbit has not eaten or passed droppings for "
     "six to twelve hours, or seems hunched and in pain."],
    ["rabbit", "gi stasis", "not eating", "no poo", "droppings", "bloated", "hay"])

article(
    "rabbit-flystrike", "Help! My rabbit has maggots", "has flystrike", ["rabbit"],
    "emergency",
    "Flies lay eggs on dirty fur and the maggots eat into the skin within hours. Flystrike "
    "is an emergency; go to a vet now.",
    ["Flystrike happens mostly in warm weather. Rabbits with a dirty bottom, from soft "
     "droppings, urine, overweight, arthritis or dental problems that stop them grooming, "
     "are most at risk, but any rabbit can be affected.",
     "Signs include maggots or eggs in the fur, usually around the bottom and tail, a bad "
     "smell, a wet or matted bottom, a rabbit that is quiet, not eating, restless or "
     "digging at its rear, and later collapse.",
     "Keep your rabbit warm and calm and phone a vet at once. If the vet asks you to, pick "
     "off the maggots you can see with tweezers on the way. Do not bathe the rabbit unless "
     "the vet says so, as wet fur can make things worse and rabbits chill easily.",
     "To prevent it, check your rabbit's bottom at least once a day in summer, twice in hot "
     "weather, keep the hutch clean, and ask your vet about fly-repellent treatments.",
     "When to see a vet: immediately. Flystrike can kill within a day."],
    ["rabbit", "flystrike", "maggots", "flies", "dirty bottom", "summer", "fly strike"])

article(
    "guinea-pig-not-eating", "My guinea pig isn't eating", "guinea pig not eating",
    ["guinea_pig"], "emergency",
    "Guinea pigs need to eat almost all the time. One that stops eating can go downhill within "
    "a day, so it needs a vet the same day.",
    ["Common causes are overgrown or sore teeth, a lack of vitamin C, gut slowdown, "
     "breathing infections, bladder stones and pain. Guinea pigs hide illness, so by the time "
     "one stops eating it may already be quite unwell.",
     "Check for other signs: drooling or a wet chin, weight loss, small or no droppings, "
     "a hunched posture, a crusty nose or eyes, noisy breathing, or sitting apart from its "
     "companion. Weigh your guinea pig on kitchen scales if you can; a weekly weight is very "
     "useful.",
     "Keep it warm and quiet, and offer fresh hay, water and favourite vegetables. Do not "
     "syringe-feed unless a vet has shown you how and what to use.",
     "Guinea pigs cannot make their own vitamin C. Feed a daily portion of fresh vegetables "
     "rich in it, such as peppers and leafy greens, and a good guinea pig pellet.",
     "When to see a vet: the same day, preferably one who knows small pets, if your guinea "
     "pig eats less than usual, stops eating, or passes fewer droppings."],
    ["guinea pig", "not eating", "vitamin c", "teeth", "hay", "weight loss", "cavy"])

article(
    "hamster-wet-tail", "Help! My hamster has wet tail", "hamster wet tail", ["hamster"],
    "emergency",
    "A wet, dirty bottom with diarrhoea in a hamster, called wet tail, can kill within one to "
    "two days. Go to a vet now.",
    ["Wet tail is a severe bowel infection, most common in young Syrian hamsters a few weeks "
     "after they come home, often set off by stress: moving, a new cage, handling too much, "
     "or a sudden change in food.",
     "Signs include a wet, matted, smelly tail and bottom, watery diarrhoea, a hunched "
     "posture, tiredness, not eating, irritability and a sunken-eyed, ruffled look. "
     "Hamsters lose fluid fast.",
     "Keep your hamster warm and quiet, in a clean cage away from other hamsters, and make "
     "sure water is within easy reach. Wash your hands after handling it. Do not bathe the "
     "hamster or give any medicine without a vet. Clean and disinfect the cage and "
     "accessories.",
     "When to see a vet: immediately, ideally an exotics or small-pet vet. Antibiotics and "
     "fluids given early give the best chance. Also see a vet for any hamster with diarrhoea, "
     "even without the wet bottom."],
    ["hamster", "wet tail", "diarrhoea", "dirty bottom", "syrian hamster", "stress"])

article(
    "bird-plucking-feathers", "My parrot is plucking its feathers", "bird plucking feathers",
    ["bird"], "call_vet",
    "Feather plucking can come from illness, skin problems, diet or stress and boredom. A "
    "vet check comes first, then changes to routine and surroundings.",
    ["Signs are bald patches, broken or chewed feathers, and fluffy down showing, usually on "
     "the chest, legs and under the wings, since a bird cannot reach its head. Medical "
     "causes include skin infections, parasites, liver disease, allergies and a poor diet. "
     "Boredom, loneliness, lack of sleep, a move or a change in the household often play a "
     "part too.",
     "Help your bird by offering foraging toys and things to shred, time out of the cage "
     "every day, company, regular baths or gentle misting, and 10 to 12 hours of dark, quiet "
     "sleep each night. Feed a balanced diet of pellets, vegetables and some fruit, not "
     "seeds alone.",
     "Keep your bird away from smoke, sprays and air fresheners. Fumes from overheated "
     "non-stick (PTFE) pans can kill birds within minutes.",
     "When to see a vet: book an avian vet for any bird that starts plucking. Go at once if "
     "the skin is bleeding, the bird is fluffed up and sleepy, stops eating, breathes with "
     "its tail bobbing, or sits on the cage floor."],
    ["bird", "parrot", "feather plucking", "feathers", "boredom", "bald patches", "stress"])

article(
    "ferret-lethargic", "My ferret is lethargic", "ferret lethargic", ["ferret"], "call_vet",
    "Ferrets sleep a lot but should be lively when awake. A ferret that stays floppy, weak or "
    "uninterested needs a vet, and one you cannot wake is an emergency.",
    ["Ferrets sleep up to 18 hours a day and can be very hard to wake from deep sleep, which "
     "is normal. Once awake, a healthy ferret is curious and playful within a few minutes.",
     "Lasting lethargy can be caused by low blood sugar from an insulin-producing tumour "
     "(insulinoma), a swallowed object (ferrets love chewing rubber and foam), adrenal "
     "disease, infections, heat stress and other illnesses. Signs of low blood sugar "
     "include staring into space, drooling, pawing at the mouth, weak back legs and "
     "collapse.",
     "Keep your ferret warm, calm and somewhere it cannot fall. If your vet has already "
     "advised it for low blood sugar, rub a little honey on the gums and then feed a proper "
     "meal. Check for vomiting, diarrhoea or small, thin droppings, which can point to a "
     "blockage.",
     "When to see a vet: the same day for a ferret that stays dull, weak or off food. Go as "
     "an emergency if you cannot wake it, it has a seizure, collapses, keeps vomiting or "
     "strains without passing anything."],
    ["ferret", "lethargic", "weak", "insulinoma", "blockage", "low blood sugar", "sleepy"])

article(
    "horse-colic", "Help! My horse is showing colic signs", "horse colic signs", ["horse"],
    "emergency",
    "Colic means belly pain. Pawing, looking at the flank, rolling and sweating can signal a "
    "twisted or blocked gut. Call your vet now.",
    ["Colic is one of the most common emergencies in horses and ponies. Some cases are mild "
     "gas pain; others are blockages or twists that need surgery. You cannot tell which from "
     "the signs alone.",
     "Watch for pawing the ground, looking or kicking at the belly, lying down and getting "
     "up repeatedly, rolling, stretching as if to urinate, sweating, restlessness, a raised "
     "breathing rate, not eating and fewer or no droppings.",
     "Call the vet straight away and describe what you see. Take away all feed (but not "
     "water) until the vet has examined the horse. If it is lying quietly, it can be left "
     "to rest. If it is rolling violently, lead it somewhere safe with soft ground and "
     "keep yourself out of the way. Do not give any medicine unless your vet tells you to; "
     "painkillers can mask signs the vet needs to see.",
     "When to see a vet: immediately, for any signs of colic. Note the time the signs "
     "started, the last droppings and any change in feed or routine."],
    ["horse", "colic", "pony", "belly pain", "rolling", "pawing", "emergency"])

article(
    "reptile-not-basking", "My lizard isn't basking", "reptile not basking", ["reptile"],
    "call_vet",
    "Reptiles need the right heat and UV light to digest food and stay well. Check the "
    "temperatures and lamps first, then see an exotics vet if nothing changes.",
    ["Lizards, snakes and tortoises rely on outside heat. A reptile that stops basking, "
     "hides all the time or stops eating is often too cold, or its basking lamp or UVB tube "
     "has failed. UVB tubes and bulbs lose strength long before they stop glowing and usually "
     "need replacing every 6 to 12 months.",
     "Measure the temperature at the warm and cool ends and under the basking spot with "
     "digital thermometers, and compare them with the care sheet for your species. Make sure "
     "the heater is on a thermostat and there is a temperature gradient so your reptile can "
     "choose where to sit.",
     "Shedding, breeding season and winter slowdown (brumation in some species) can also "
     "reduce activity, but never assume these without checking.",
     "Weigh your reptile regularly; slow weight loss is easy to miss.",
     "When to see a vet: an exotics or reptile vet if your pet is still not basking or eating "
     "once the set-up is correct, loses weight, has swollen limbs or jaw, a soft shell, sores "
     "in the mouth, or breathes with its mouth open. A reptile that cannot move properly "
     "needs to be seen the same day."],
    ["reptile", "basking", "lizard", "uvb", "heat lamp", "bearded dragon", "tortoise"])

article(
    "fish-gasping", "My fish are gasping at the surface", "fish gasping at surface", ["fish"],
    "home_care",
    "Fish gasping at the surface usually means low oxygen or poor water quality. Test the "
    "water and do a partial water change straight away.",
    ["Fish normally breathe through their gills and stay in their usual level of the tank. "
     "Gasping at the top, often with fast gill movements, means they are short of oxygen. "
     "This happens when the water is too warm, the filter has stopped, the tank is "
     "overstocked, or waste has built up (ammonia or nitrite).",
     "Act now: check the filter and air pump are working and increase surface movement, for "
     "example by lowering the water level slightly below the filter outlet or adding an "
     "air stone. Test the water for ammonia, nitrite, nitrate and pH. Change about a quarter "
     "to a third of the water with dechlorinated water at the same temperature. Do not feed "
     "for a day and do not add new fish.",
     "In a pond, gasping in hot weather or after a storm means low oxygen: add a pump or "
     "fountain.",
     "When to see a vet: if the fish keep gasping after the water is right, or have red "
     "or swollen gills, sores, white spots, clamped fins or are dying one after another, "
     "ask an aquatic vet or a specialist fish shop for help the same day."],
    ["fish", "gasping", "oxygen", "water quality", "ammonia", "aquarium", "pond"])

article(
    "rat-sneezing", "My pet rat is sneezing", "rat sneezing", ["other"], "call_vet",
    "Rats often get breathing infections. Occasional sneezes are normal, but frequent "
    "sneezing, noisy breathing or red crusts around the eyes and nose need a vet.",
    ["Pet rats are prone to a long-lasting bacterial infection of the airways. Dusty or "
     "scented bedding, a dirty cage with a strong ammonia smell, draughts and stress can "
     "make it flare up. A rat may sneeze in fits, make clicking or rattling sounds, breathe "
     "faster, or have red-brown crusts around the eyes and nose (porphyrin, which looks like "
     "blood but is a tear pigment rats produce when unwell or stressed).",
     "Use dust-free, unscented bedding such as paper-based litter, clean the cage often, "
     "keep it out of draughts and away from smoke and sprays, and keep your rats warm.",
     "Mice, gerbils and chinchillas can have similar problems and need the same kind of "
     "care.",
     "When to see a vet: an exotics vet if sneezing lasts more than a few days or there is "
     "clicking or rattling, red crusts, or weight loss. Go the same day if your rat breathes "
     "with effort, with its sides heaving, sits hunched and fluffed up, or stops eating."],
    ["rat", "sneezing", "breathing", "porphyrin", "bedding", "respiratory infection",
     "small pet"])
