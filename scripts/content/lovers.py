"""Names and "about" phrases for the sample dog-lover profiles (data/sample/lovers.jsonl),
written by the Scout team. Lovers are people who would like to walk, sit or foster dogs.
"""

# (first name, sex "m"/"f"). Polish names for Polish towns; Irish and English names for
# Irish towns; English, Welsh, Scottish and other names common in Britain for British towns.
NAMES = {
    "PL": [("Agnieszka", "f"), ("Małgorzata", "f"), ("Katarzyna", "f"), ("Joanna", "f"),
           ("Anna", "f"), ("Zofia", "f"), ("Jadwiga", "f"), ("Bożena", "f"), ("Żaneta", "f"),
           ("Ewelina", "f"), ("Łucja", "f"), ("Urszula", "f"), ("Beata", "f"), ("Magdalena", "f"),
           ("Aleksandra", "f"), ("Natalia", "f"), ("Weronika", "f"), ("Julia", "f"),
           ("Maja", "f"), ("Oliwia", "f"), ("Kinga", "f"), ("Dorota", "f"), ("Iwona", "f"),
           ("Marta", "f"), ("Paulina", "f"), ("Patrycja", "f"), ("Gosia", "f"), ("Basia", "f"),
           ("Piotr", "m"), ("Paweł", "m"), ("Łukasz", "m"), ("Michał", "m"), ("Grzegorz", "m"),
           ("Wojciech", "m"), ("Krzysztof", "m"), ("Tomasz", "m"), ("Jędrzej", "m"),
           ("Andrzej", "m"), ("Mikołaj", "m"), ("Przemysław", "m"), ("Zbigniew", "m"),
           ("Kacper", "m"), ("Jakub", "m"), ("Szymon", "m"), ("Bartosz", "m"), ("Maciej", "m"),
           ("Marcin", "m"), ("Rafał", "m"), ("Adam", "m"), ("Kamil", "m"), ("Dawid", "m"),
           ("Stanisław", "m"), ("Jarek", "m"), ("Bartek", "m")],
    "IE": [("Siobhán", "f"), ("Aoife", "f"), ("Niamh", "f"), ("Róisín", "f"), ("Gráinne", "f"),
           ("Sinéad", "f"), ("Caoimhe", "f"), ("Orla", "f"), ("Mary", "f"), ("Áine", "f"),
           ("Deirdre", "f"), ("Clare", "f"), ("Emer", "f"), ("Ciara", "f"), ("Saoirse", "f"),
           ("Aisling", "f"), ("Méabh", "f"), ("Sarah", "f"), ("Emma", "f"), ("Sophie", "f"),
           ("Pádraig", "m"), ("Seán", "m"), ("Ciarán", "m"), ("Declan", "m"), ("Éamonn", "m"),
           ("Colm", "m"), ("Diarmuid", "m"), ("Liam", "m"), ("Cathal", "m"), ("John", "m"),
           ("Tomás", "m"), ("Fergal", "m"), ("Oisín", "m"), ("Darragh", "m"), ("Cian", "m"),
           ("Conor", "m"), ("Eoin", "m"), ("Jack", "m"), ("Michael", "m"), ("Rónán", "m")],
    "GB": [("Sarah", "f"), ("Emma", "f"), ("Charlotte", "f"), ("Hannah", "f"), ("Rebecca", "f"),
           ("Lucy", "f"), ("Sophie", "f"), ("Rhian", "f"), ("Siân", "f"), ("Eilidh", "f"),
           ("Margaret", "f"), ("Zoë", "f"), ("Amelia", "f"), ("Olivia", "f"), ("Priya", "f"),
           ("Aisha", "f"), ("Megan", "f"), ("Kirsty", "f"), ("Jess", "f"), ("Chloe", "f"),
           ("James", "m"), ("Thomas", "m"), ("Oliver", "m"), ("David", "m"), ("Daniel", "m"),
           ("Gareth", "m"), ("Rhys", "m"), ("Iain", "m"), ("Callum", "m"), ("Andrew", "m"),
           ("Mark", "m"), ("Dafydd", "m"), ("Harry", "m"), ("George", "m"), ("Imran", "m"),
           ("Arjun", "m"), ("Ewan", "m"), ("Sam", "m"), ("Ben", "m"), ("Joe", "m")],
}

# English phrases; experience 1-5 and activity level 1-5 each have a few.
EXPERIENCE_EN = {
    1: ["New to dogs but keen to learn.", "Never had a dog of my own, always wanted one.",
        "First-time dog person, reading everything I can."],
    2: ["Grew up with a family dog.", "I mind friends' dogs now and then.",
        "Had a dog as a kid and miss having one around."],
    3: ["Dogs have been part of my life for years.", "Had two dogs, both rescues.",
        "Comfortable with most dogs, big or small."],
    4: ["Experienced owner, happy with big and lively dogs.",
        "Used to strong dogs and reactive dogs on the lead.",
        "Years of fostering for a local rescue."],
    5: ["Former kennel volunteer, now a qualified dog trainer.",
        "Veterinary nurse, comfortable with medication and special diets.",
        "Lifelong dog person and professional walker; canine first aid trained."],
}
ACTIVITY_EN = {
    1: ["Best suited to slow strolls and plenty of cuddles.",
        "A quiet home, ideal for older or calmer dogs."],
    2: ["Short walks round the neighbourhood suit me.",
        "Gentle walks twice a day, sofa time in between."],
    3: ["Daily walks in the park, rain or shine.",
        "An hour of walking most days, longer at weekends."],
    4: ["Out hiking most weekends and walking every day.",
        "Love long country walks and a game of fetch."],
    5: ["Runner and hiker; canicross and long trails welcome.",
        "Very active: running, cycling and mountain walks."],
}
PETS_EN = {
    "none": ["No other pets at home.", "No pets at the moment, so your dog gets all the attention."],
    "dog": ["My own dog loves company.", "Our dog is very sociable with other dogs."],
    "cat": ["Our cat is used to dogs.", "There is a dog-savvy cat in the house."],
    "small": ["We also keep small pets, so a calm dog is best."],
    "other": ["We have other animals too, all used to visitors."],
}
EXTRAS_EN = ["I work from home, so someone is nearly always around.",
             "Fully fenced garden.", "Free most weekends for dog sitting.",
             "Happy to help over school holidays.", "Comfortable giving tablets and eye drops.",
             "Live near a big park.", "Can do midday walks on weekdays.",
             "Happy to foster while a dog waits for a home."]
PLACES_EN = {"IE": ["Live near the beach.", "Close to the canal walks.", "Walking distance from the woods."],
             "GB": ["Close to the common.", "Live by the canal towpath.", "Near the moors."]}
IRISH_EN = ["Is breá liom madraí.", "Fáilte roimh gach madra."]

# Polish phrases: (male, female) forms where the grammar needs them.
EXPERIENCE_PL = {
    1: [("Dopiero zaczynam przygodę z psami, ale chętnie się uczę.",) * 2,
        ("Nigdy nie miałem własnego psa, ale zawsze o nim marzyłem.",
         "Nigdy nie miałam własnego psa, ale zawsze o nim marzyłam.")],
    2: [("W dzieciństwie mieliśmy w domu psa.",) * 2,
        ("Od czasu do czasu opiekuję się psami znajomych.",) * 2],
    3: [("Psy towarzyszą mi od wielu lat.",) * 2,
        ("Miałem już dwa psy, oba ze schroniska.", "Miałam już dwa psy, oba ze schroniska.")],
    4: [("Jestem doświadczonym opiekunem, nie boję się dużych i energicznych psów.",
         "Jestem doświadczoną opiekunką, nie boję się dużych i energicznych psów."),
        ("Od lat prowadzę dom tymczasowy dla psów z fundacji.",) * 2],
    5: [("Przez lata byłem wolontariuszem w schronisku, dziś szkolę psy.",
         "Przez lata byłam wolontariuszką w schronisku, dziś szkolę psy."),
        ("Pracuję jako technik weterynarii, umiem podawać leki.",) * 2],
}
ACTIVITY_PL = {
    1: [("Wolę spokojne spacery i dużo głaskania.",) * 2],
    2: [("Krótkie spacery po osiedlu to moje tempo.",) * 2],
    3: [("Codziennie spaceruję po parku, niezależnie od pogody.",) * 2],
    4: [("W weekendy chodzę po lasach i górach.",) * 2],
    5: [("Biegam i jeżdżę na rowerze, energiczny pies to dla mnie frajda.",) * 2],
}
PETS_PL = {
    "none": [("Nie mam innych zwierząt.",) * 2],
    "dog": [("Mój pies uwielbia towarzystwo innych psów.",) * 2],
    "cat": [("W domu mieszka kot, który lubi psy.",) * 2],
    "small": [("Mamy też małe zwierzęta, więc najlepiej sprawdzi się spokojny pies.",) * 2],
    "other": [("W domu są też inne zwierzaki, przyzwyczajone do gości.",) * 2],
}
EXTRAS_PL = [("Pracuję zdalnie, więc prawie zawsze ktoś jest w domu.",) * 2,
             ("Mam ogród z solidnym ogrodzeniem.",) * 2,
             ("Mogę zaopiekować się psem w weekendy.",) * 2,
             ("Chętnie pomogę w czasie wakacji.",) * 2,
             ("Mieszkam blisko lasu.",) * 2,
             ("Mogę wychodzić z psem w ciągu dnia.",) * 2]
