-- Every sale of the toy auction: the item, its winner and the price paid.
CREATE OR REPLACE VIEW toy_sales AS
SELECT e.game_id,
       CAST(e.payload->>'item' AS INTEGER) AS item,
       CAST(e.payload->>'winner' AS SMALLINT) AS winner,
       CAST(json_extract(e.payload, '$.bids[' || (e.payload->>'winner') || ']') AS INTEGER) AS price
FROM events e
WHERE e.type = 'toy_bids';
