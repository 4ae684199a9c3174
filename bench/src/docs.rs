//! The three benchmark documents as typed structs, derived the way a serde
//! user writes them (field names as in the JSON, `Option` for nullable
//! fields, `()` for fields that are always `null`, integer-keyed maps),
//! with `String` fields, and again in [`with_str`] with every string an
//! `ito::Str`. Each set is concrete, not generic, as a serde user's types
//! are: generic structs read measurably slower (`bench/RESULTS.md`).
//! Shared by `benches/docs.rs` and ito's differential tests
//! (`crates/ito/tests/json_serde.rs` includes this file).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
/// Defines the document types with `$S` as the owned string type.
macro_rules! document_types {
    ($S:ty) => {
        /// twitter.json: a search API response.
        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Twitter {
            pub statuses: Vec<Status>,
            pub search_metadata: SearchMetadata,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Status {
            pub metadata: Metadata,
            pub created_at: $S,
            pub id: u64,
            pub id_str: $S,
            pub text: $S,
            pub source: $S,
            pub truncated: bool,
            pub in_reply_to_status_id: Option<u64>,
            pub in_reply_to_status_id_str: Option<$S>,
            pub in_reply_to_user_id: Option<u64>,
            pub in_reply_to_user_id_str: Option<$S>,
            pub in_reply_to_screen_name: Option<$S>,
            pub user: User,
            pub geo: (),
            pub coordinates: (),
            pub place: (),
            pub contributors: (),
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub retweeted_status: Option<Box<Status>>,
            pub retweet_count: u32,
            pub favorite_count: u32,
            pub entities: StatusEntities,
            pub favorited: bool,
            pub retweeted: bool,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub possibly_sensitive: Option<bool>,
            pub lang: $S,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Metadata {
            pub result_type: $S,
            pub iso_language_code: $S,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct User {
            pub id: u64,
            pub id_str: $S,
            pub name: $S,
            pub screen_name: $S,
            pub location: $S,
            pub description: $S,
            pub url: Option<$S>,
            pub entities: UserEntities,
            pub protected: bool,
            pub followers_count: u32,
            pub friends_count: u32,
            pub listed_count: u32,
            pub created_at: $S,
            pub favourites_count: u32,
            pub utc_offset: Option<i32>,
            pub time_zone: Option<$S>,
            pub geo_enabled: bool,
            pub verified: bool,
            pub statuses_count: u32,
            pub lang: $S,
            pub contributors_enabled: bool,
            pub is_translator: bool,
            pub is_translation_enabled: bool,
            pub profile_background_color: $S,
            pub profile_background_image_url: $S,
            pub profile_background_image_url_https: $S,
            pub profile_background_tile: bool,
            pub profile_image_url: $S,
            pub profile_image_url_https: $S,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub profile_banner_url: Option<$S>,
            pub profile_link_color: $S,
            pub profile_sidebar_border_color: $S,
            pub profile_sidebar_fill_color: $S,
            pub profile_text_color: $S,
            pub profile_use_background_image: bool,
            pub default_profile: bool,
            pub default_profile_image: bool,
            pub following: bool,
            pub follow_request_sent: bool,
            pub notifications: bool,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct UserEntities {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub url: Option<UserUrls>,
            pub description: UserUrls,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct UserUrls {
            pub urls: Vec<Url>,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Url {
            pub url: $S,
            pub expanded_url: $S,
            pub display_url: $S,
            pub indices: (u32, u32),
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct StatusEntities {
            pub hashtags: Vec<Hashtag>,
            pub symbols: Vec<$S>,
            pub urls: Vec<Url>,
            pub user_mentions: Vec<UserMention>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub media: Option<Vec<Media>>,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Hashtag {
            pub text: $S,
            pub indices: (u32, u32),
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct UserMention {
            pub screen_name: $S,
            pub name: $S,
            pub id: u64,
            pub id_str: $S,
            pub indices: (u32, u32),
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Media {
            pub id: u64,
            pub id_str: $S,
            pub indices: (u32, u32),
            pub media_url: $S,
            pub media_url_https: $S,
            pub url: $S,
            pub display_url: $S,
            pub expanded_url: $S,
            #[serde(rename = "type")]
            pub kind: $S,
            pub sizes: Sizes,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub source_status_id: Option<u64>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub source_status_id_str: Option<$S>,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Sizes {
            pub medium: Size,
            pub small: Size,
            pub thumb: Size,
            pub large: Size,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Size {
            pub w: u32,
            pub h: u32,
            pub resize: $S,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct SearchMetadata {
            pub completed_in: f64,
            pub max_id: u64,
            pub max_id_str: $S,
            pub next_results: $S,
            pub query: $S,
            pub refresh_url: $S,
            pub count: u32,
            pub since_id: u64,
            pub since_id_str: $S,
        }

        /// citm_catalog.json: a ticketing catalogue, mostly integer-keyed maps.
        #[derive(Serialize, Deserialize, Clone, Debug)]
        #[serde(rename_all = "camelCase")]
        pub struct Citm {
            pub area_names: BTreeMap<u64, $S>,
            pub audience_sub_category_names: BTreeMap<u64, $S>,
            pub block_names: BTreeMap<u64, $S>,
            pub events: BTreeMap<u64, Event>,
            pub performances: Vec<Performance>,
            pub seat_category_names: BTreeMap<u64, $S>,
            pub sub_topic_names: BTreeMap<u64, $S>,
            pub subject_names: BTreeMap<u64, $S>,
            pub topic_names: BTreeMap<u64, $S>,
            pub topic_sub_topics: BTreeMap<u64, Vec<u64>>,
            pub venue_names: BTreeMap<$S, $S>,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        #[serde(rename_all = "camelCase")]
        pub struct Event {
            pub description: (),
            pub id: u64,
            pub logo: Option<$S>,
            pub name: $S,
            pub sub_topic_ids: Vec<u64>,
            pub subject_code: (),
            pub subtitle: (),
            pub topic_ids: Vec<u64>,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        #[serde(rename_all = "camelCase")]
        pub struct Performance {
            pub event_id: u64,
            pub id: u64,
            pub logo: Option<$S>,
            pub name: (),
            pub prices: Vec<Price>,
            pub seat_categories: Vec<SeatCategory>,
            pub seat_map_image: (),
            pub start: u64,
            pub venue_code: $S,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        #[serde(rename_all = "camelCase")]
        pub struct Price {
            pub amount: u64,
            pub audience_sub_category_id: u64,
            pub seat_category_id: u64,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        #[serde(rename_all = "camelCase")]
        pub struct SeatCategory {
            pub areas: Vec<Area>,
            pub seat_category_id: u64,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        #[serde(rename_all = "camelCase")]
        pub struct Area {
            pub area_id: u64,
            pub block_ids: Vec<u64>,
        }

        /// canada.json: GeoJSON, rings of (longitude, latitude) pairs.
        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Canada {
            #[serde(rename = "type")]
            pub kind: $S,
            pub features: Vec<Feature>,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Feature {
            #[serde(rename = "type")]
            pub kind: $S,
            pub properties: Properties,
            pub geometry: Geometry,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Properties {
            pub name: $S,
        }

        #[derive(Serialize, Deserialize, Clone, Debug)]
        pub struct Geometry {
            #[serde(rename = "type")]
            pub kind: $S,
            pub coordinates: Vec<Vec<(f64, f64)>>,
        }
    };
}

document_types!(String);

/// canada.json with serde-rs/json-benchmark's own coordinate types:
/// `Latitude` and `Longitude` are `f32`, so every number is read as an
/// `f32` (the row that shows a reader's `f32` path).
pub mod canada_f32 {
    use serde::{Deserialize, Serialize};

    /// json-benchmark's `Latitude`.
    pub type Latitude = f32;
    /// json-benchmark's `Longitude`.
    pub type Longitude = f32;

    /// canada.json: GeoJSON, rings of (longitude, latitude) pairs.
    #[derive(Serialize, Deserialize, Clone, Debug)]
    pub struct Canada {
        #[serde(rename = "type")]
        pub kind: String,
        pub features: Vec<Feature>,
    }

    #[derive(Serialize, Deserialize, Clone, Debug)]
    pub struct Feature {
        #[serde(rename = "type")]
        pub kind: String,
        pub properties: Properties,
        pub geometry: Geometry,
    }

    #[derive(Serialize, Deserialize, Clone, Debug)]
    pub struct Properties {
        pub name: String,
    }

    #[derive(Serialize, Deserialize, Clone, Debug)]
    pub struct Geometry {
        #[serde(rename = "type")]
        pub kind: String,
        pub coordinates: Vec<Vec<(Latitude, Longitude)>>,
    }
}

/// The same documents with every string an `ito::Str`, so a parse keeps
/// the facts its scan proved and a render can copy clean strings.
pub mod with_str {
    use super::*;

    document_types!(ito::Str);
}

/// Renders `t` with [`ito::json::Writer`] by hand, field for field as the
/// derived `Serialize` writes it (the same bytes as `serde_json::to_vec`).
pub fn write_twitter(out: &mut Vec<u8>, t: &Twitter) {
    use ito::json::{Object, Writer};

    fn pair(o: &mut Object<'_>, key: &str, (a, b): (u32, u32)) {
        o.array(key).push(a).push(b);
    }

    fn url(mut o: Object<'_>, u: &Url) {
        o.field("url", &u.url)
            .field("expanded_url", &u.expanded_url)
            .field("display_url", &u.display_url);
        pair(&mut o, "indices", u.indices);
    }

    fn urls(mut wrapper: Object<'_>, list: &UserUrls) {
        let mut a = wrapper.array("urls");
        for u in &list.urls {
            url(a.object(), u);
        }
    }

    fn size(mut o: Object<'_>, s: &Size) {
        o.field("w", s.w).field("h", s.h).field("resize", &s.resize);
    }

    fn user(mut o: Object<'_>, u: &User) {
        o.field("id", u.id)
            .field("id_str", &u.id_str)
            .field("name", &u.name)
            .field("screen_name", &u.screen_name)
            .field("location", &u.location)
            .field("description", &u.description)
            .field("url", u.url.as_deref());
        {
            let mut e = o.object("entities");
            if let Some(list) = &u.entities.url {
                urls(e.object("url"), list);
            }
            urls(e.object("description"), &u.entities.description);
        }
        o.field("protected", u.protected)
            .field("followers_count", u.followers_count)
            .field("friends_count", u.friends_count)
            .field("listed_count", u.listed_count)
            .field("created_at", &u.created_at)
            .field("favourites_count", u.favourites_count)
            .field("utc_offset", u.utc_offset)
            .field("time_zone", u.time_zone.as_deref())
            .field("geo_enabled", u.geo_enabled)
            .field("verified", u.verified)
            .field("statuses_count", u.statuses_count)
            .field("lang", &u.lang)
            .field("contributors_enabled", u.contributors_enabled)
            .field("is_translator", u.is_translator)
            .field("is_translation_enabled", u.is_translation_enabled)
            .field("profile_background_color", &u.profile_background_color)
            .field(
                "profile_background_image_url",
                &u.profile_background_image_url,
            )
            .field(
                "profile_background_image_url_https",
                &u.profile_background_image_url_https,
            )
            .field("profile_background_tile", u.profile_background_tile)
            .field("profile_image_url", &u.profile_image_url)
            .field("profile_image_url_https", &u.profile_image_url_https);
        if let Some(banner) = &u.profile_banner_url {
            o.field("profile_banner_url", banner);
        }
        o.field("profile_link_color", &u.profile_link_color)
            .field(
                "profile_sidebar_border_color",
                &u.profile_sidebar_border_color,
            )
            .field("profile_sidebar_fill_color", &u.profile_sidebar_fill_color)
            .field("profile_text_color", &u.profile_text_color)
            .field(
                "profile_use_background_image",
                u.profile_use_background_image,
            )
            .field("default_profile", u.default_profile)
            .field("default_profile_image", u.default_profile_image)
            .field("following", u.following)
            .field("follow_request_sent", u.follow_request_sent)
            .field("notifications", u.notifications);
    }

    fn entities(mut o: Object<'_>, e: &StatusEntities) {
        {
            let mut a = o.array("hashtags");
            for h in &e.hashtags {
                let mut ho = a.object();
                ho.field("text", &h.text);
                pair(&mut ho, "indices", h.indices);
            }
        }
        o.array("symbols").extend(&e.symbols);
        {
            let mut a = o.array("urls");
            for u in &e.urls {
                url(a.object(), u);
            }
        }
        {
            let mut a = o.array("user_mentions");
            for m in &e.user_mentions {
                let mut mo = a.object();
                mo.field("screen_name", &m.screen_name)
                    .field("name", &m.name)
                    .field("id", m.id)
                    .field("id_str", &m.id_str);
                pair(&mut mo, "indices", m.indices);
            }
        }
        if let Some(media) = &e.media {
            let mut a = o.array("media");
            for m in media {
                let mut mo = a.object();
                mo.field("id", m.id).field("id_str", &m.id_str);
                pair(&mut mo, "indices", m.indices);
                mo.field("media_url", &m.media_url)
                    .field("media_url_https", &m.media_url_https)
                    .field("url", &m.url)
                    .field("display_url", &m.display_url)
                    .field("expanded_url", &m.expanded_url)
                    .field("type", &m.kind);
                {
                    let mut s = mo.object("sizes");
                    size(s.object("medium"), &m.sizes.medium);
                    size(s.object("small"), &m.sizes.small);
                    size(s.object("thumb"), &m.sizes.thumb);
                    size(s.object("large"), &m.sizes.large);
                }
                if let Some(id) = m.source_status_id {
                    mo.field("source_status_id", id);
                }
                if let Some(id) = &m.source_status_id_str {
                    mo.field("source_status_id_str", id);
                }
            }
        }
    }

    fn status(mut o: Object<'_>, s: &Status) {
        o.object("metadata")
            .field("result_type", &s.metadata.result_type)
            .field("iso_language_code", &s.metadata.iso_language_code);
        o.field("created_at", &s.created_at)
            .field("id", s.id)
            .field("id_str", &s.id_str)
            .field("text", &s.text)
            .field("source", &s.source)
            .field("truncated", s.truncated)
            .field("in_reply_to_status_id", s.in_reply_to_status_id)
            .field(
                "in_reply_to_status_id_str",
                s.in_reply_to_status_id_str.as_deref(),
            )
            .field("in_reply_to_user_id", s.in_reply_to_user_id)
            .field(
                "in_reply_to_user_id_str",
                s.in_reply_to_user_id_str.as_deref(),
            )
            .field(
                "in_reply_to_screen_name",
                s.in_reply_to_screen_name.as_deref(),
            );
        user(o.object("user"), &s.user);
        o.field("geo", ())
            .field("coordinates", ())
            .field("place", ())
            .field("contributors", ());
        if let Some(rt) = &s.retweeted_status {
            status(o.object("retweeted_status"), rt);
        }
        o.field("retweet_count", s.retweet_count)
            .field("favorite_count", s.favorite_count);
        entities(o.object("entities"), &s.entities);
        o.field("favorited", s.favorited)
            .field("retweeted", s.retweeted);
        if let Some(p) = s.possibly_sensitive {
            o.field("possibly_sensitive", p);
        }
        o.field("lang", &s.lang);
    }

    let mut root = Writer::new(out).object();
    {
        let mut a = root.array("statuses");
        for s in &t.statuses {
            status(a.object(), s);
        }
    }
    let m = &t.search_metadata;
    root.object("search_metadata")
        .field("completed_in", m.completed_in)
        .field("max_id", m.max_id)
        .field("max_id_str", &m.max_id_str)
        .field("next_results", &m.next_results)
        .field("query", &m.query)
        .field("refresh_url", &m.refresh_url)
        .field("count", m.count)
        .field("since_id", m.since_id)
        .field("since_id_str", &m.since_id_str);
}
